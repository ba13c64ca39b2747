import { compareVerdicts, DifferenceWalk } from "../compare";
import { isJsonObject, decodeJson, type JsonObject } from "../json";
import { summarize } from "../conversion";
import { storedForm } from "../kube";
import { checkReply, type SentReview } from "../kube/apiserver";

/** One object the candidate converted otherwise than the live reply: who, and where (never what). */
interface ObjectDifference {
  /** The object's index in the review. */
  index: number;
  /** Its `metadata.uid`, if it has one. */
  uid: string | undefined;
  /** jq-style paths as `crdshift diff` prints them; keys only, no values. At most `Reported.paths`. */
  paths: string[];
  /** Whether it differs at more paths than those: the walk stopped at the first one past them. */
  morePaths: boolean;
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
  /** `unfinished`: the comparison's work ran out before every object was compared. */
  | { outcome: "same"; unfinished?: Unfinished }
  /** Both succeeded; these objects differ (`differing` of them, those past `Reported.objects` without paths). */
  | { outcome: "different"; objects: ObjectDifference[]; differing: number; unfinished?: Unfinished }
  /** The live reply failed and the candidate's did not: every object differs. */
  | { outcome: "live-failed" }
  /** The candidate's reply failed where the live one did not (its Failure or a reply the apiserver refuses). */
  | { outcome: "candidate-failed" };

/** How far a comparison got before its work ran out. */
export interface Unfinished {
  /** Objects compared to the end (those after it were not compared at all). */
  compared: number;
}

/** What the log lines name, so the walk looks for that much and no more. */
export interface Reported {
  /** Objects whose paths are named. */
  objects: number;
  /** Paths named per object. */
  paths: number;
}

/**
 * The comparison's share of the event loop. It compares in slices, handing the loop back
 * between them, and stops when its work or its time is spent: its trees are as large as the
 * candidate made them, and a live request must never wait behind more than one slice.
 */
export interface ComparisonPace {
  /** Pairs of values compared per slice. */
  sliceSteps: number;
  /** Pairs compared in all, at most, for one review. */
  maxSteps: number;
  /** Whether the shadow's time is up. */
  expired: () => boolean;
  /** Resolves in a later turn of the event loop, after what is waiting (live requests). */
  nextTurn: () => Promise<void>;
}

/**
 * The review both sides answered (`sent`: crdshift's own reading of the request's text, so
 * nothing either side's converters did to their objects shows here) and the two replies as the
 * apiserver would take them, compared as `crdshift diff` compares them, object by object: one
 * path list per object, so a log line can name the object it is about. Each object's walk
 * stops at the paths the report names (one past them, to know there are more; one in all for
 * an object past those the report names, to count it).
 */
export async function compareReplies(
  sent: SentReview,
  liveReply: string,
  candidateReply: string,
  reported: Reported,
  pace: ComparisonPace,
): Promise<ShadowVerdict> {
  const live = checkReply(sent, 200, liveReply, "application/json");
  await pace.nextTurn();
  const candidate = checkReply(sent, 200, candidateReply, "application/json");
  if (!live.ok || !candidate.ok) {
    const { outcome } = compareVerdicts(live, candidate);
    if (outcome === "baseline-failed") return { outcome: "live-failed" };
    if (outcome === "candidate-failed") return { outcome: "candidate-failed" };
    return { outcome: "same" };
  }
  const objects: ObjectDifference[] = [];
  let differing = 0;
  let steps = 0;
  let sinceTurn = 0;
  for (let index = 0; index < live.objects.length; index++) {
    const object = live.objects[index]!;
    const named = objects.length < reported.objects;
    const walk = new DifferenceWalk(storedForm(object), storedForm(candidate.objects[index]), {
      limit: named ? reported.paths + 1 : 1,
    });
    let done = false;
    while (!done && steps < pace.maxSteps) {
      if (sinceTurn >= pace.sliceSteps) {
        if (pace.expired()) break;
        await pace.nextTurn();
        sinceTurn = 0;
      }
      const before = walk.steps;
      done = walk.advance(Math.min(pace.sliceSteps - sinceTurn, pace.maxSteps - steps));
      steps += walk.steps - before;
      sinceTurn += walk.steps - before;
    }
    if (walk.found.length > 0) {
      differing++;
      if (named) objects.push(objectDifference(index, object, walk, reported));
    }
    if (!done) {
      const unfinished = { compared: index };
      return differing === 0
        ? { outcome: "same", unfinished }
        : { outcome: "different", objects, differing, unfinished };
    }
  }
  return differing === 0 ? { outcome: "same" } : { outcome: "different", objects, differing };
}

function objectDifference(
  index: number,
  object: JsonObject,
  walk: DifferenceWalk,
  reported: Reported,
): ObjectDifference {
  const metadata = isJsonObject(object.metadata) ? object.metadata : {};
  return {
    index,
    uid: typeof metadata.uid === "string" ? metadata.uid : undefined,
    paths: walk.found.slice(0, reported.paths).map((difference) => difference.path),
    morePaths: walk.found.length > reported.paths,
  };
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
