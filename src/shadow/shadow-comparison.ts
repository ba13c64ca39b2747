import { compareVerdicts } from "../compare";
import { isJsonObject, decodeJson } from "../json";
import { summarize } from "../conversion";
import { checkReply, type SentReview } from "../kube/apiserver";

/** One object the candidate converted otherwise than the live reply: who, and where (never what). */
interface ObjectDifference {
  /** The object's index in the review. */
  index: number;
  /** Its `metadata.uid`, if it has one. */
  uid: string | undefined;
  /** jq-style paths as `crdshift diff` prints them; keys only, no values. */
  paths: string[];
}

/** The review's names for metrics and logs: never contents. */
export interface ShadowSubject {
  uid: string;
  crd: string;
  from: string;
  to: string;
  objects: number;
}

export type ShadowVerdict =
  | { outcome: "same" }
  /** Both succeeded; these objects differ. */
  | { outcome: "different"; objects: ObjectDifference[] }
  /** The live reply failed and the candidate's did not: every object differs. */
  | { outcome: "live-failed" }
  /** The candidate's reply failed where the live one did not (its Failure or a reply the apiserver refuses). */
  | { outcome: "candidate-failed" };

/**
 * The review both sides answered (`sent`: crdshift's own reading of the request's text, so
 * nothing either side's converters did to their objects shows here) and the two replies as the
 * apiserver would take them, compared as `crdshift diff` compares them, object by object: one
 * path list per object, so a log line can name the object it is about.
 */
export function compareReplies(sent: SentReview, liveReply: string, candidateReply: string): ShadowVerdict {
  const live = checkReply(sent, 200, liveReply, "application/json");
  const candidate = checkReply(sent, 200, candidateReply, "application/json");
  if (!live.ok || !candidate.ok) {
    const { outcome } = compareVerdicts(live, candidate);
    if (outcome === "baseline-failed") return { outcome: "live-failed" };
    if (outcome === "candidate-failed") return { outcome: "candidate-failed" };
    return { outcome: "same" };
  }
  const objects: ObjectDifference[] = [];
  live.objects.forEach((object, index) => {
    const other = candidate.objects[index]!;
    const comparison = compareVerdicts({ ok: true, objects: [object] }, { ok: true, objects: [other] });
    if (comparison.outcome !== "different") return;
    const metadata = isJsonObject(object.metadata) ? object.metadata : {};
    objects.push({
      index,
      uid: typeof metadata.uid === "string" ? metadata.uid : undefined,
      paths: comparison.differences.map((difference) => difference.path),
    });
  });
  return objects.length === 0 ? { outcome: "same" } : { outcome: "different", objects };
}

/** The request's text read again, as the apiserver sent it. */
export function readSent(body: string): SentReview {
  return decodeJson(body).value as SentReview;
}

/** What the metrics and log lines name a review by. */
export function shadowSubject(sent: unknown): ShadowSubject {
  const request = isJsonObject(sent) && isJsonObject(sent.request) ? sent.request : {};
  const objects = Array.isArray(request.objects) ? request.objects : [];
  const desired = typeof request.desiredAPIVersion === "string" ? request.desiredAPIVersion : "";
  const { crd, from } = summarize(objects);
  return {
    uid: typeof request.uid === "string" ? request.uid : "",
    crd,
    from,
    to: desired.slice(desired.lastIndexOf("/") + 1),
    objects: objects.length,
  };
}
