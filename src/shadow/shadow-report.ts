import { clip } from "../json";
import type { Failure } from "../outcome";
import type { Logger } from "../log";
import type { Metrics } from "../metrics";
import type { Reported, ShadowSubject, ShadowVerdict, Unfinished } from "./shadow-comparison";

/**
 * What the lines of one review name: paths per line (`morePaths` says there are others), and
 * lines about differing objects (each says how many objects differ in all). The comparison
 * looks for no more than this.
 */
export const REPORTED: Reported = { paths: 10, objects: 5 };
/** Characters of one path kept: paths hold keys, and keys can be long. */
const PATH_LIMIT = 200;

/** The trace ids of a review's log line, repeated in its shadow's lines to join them. */
export type TraceIds = Readonly<Record<string, string>>;

/** Why a candidate has no reply to compare. */
export type ShadowBreakdown =
  | { breakdown: "threw" }
  | { breakdown: "timed-out" }
  /** Its reply was a Failure where the live one was not; its cause and code, never its message. */
  | ({ breakdown: "failed" } & Partial<Pick<Failure, "cause" | "code">>)
  /** It rejected the body the live webhook answered (a Rejection: not JSON, not a review, too deep). */
  | { breakdown: "rejected" };

/**
 * The metrics and log lines of one shadowed review. Lines hold names, uids, counts and JSON
 * paths: never a value, and never a converter's message (it may quote the object). Each carries
 * the review's trace ids, as its own line does.
 */
export function reportShadow(
  log: Logger,
  metrics: Metrics,
  subject: ShadowSubject,
  result: ShadowVerdict | ShadowBreakdown,
  trace?: TraceIds,
): void {
  const about = { uid: clip(subject.uid), crd: subject.crd, from: subject.from, to: subject.to, ...trace };
  if ("breakdown" in result) {
    metrics.shadow({ ...counts(subject), differences: 0, failed: true });
    log({
      level: "warn",
      msg: "shadow candidate failed",
      ...about,
      reason: result.breakdown,
      ...(result.breakdown === "failed" && result.cause ? { cause: result.cause, code: result.code } : {}),
    });
    return;
  }
  switch (result.outcome) {
    case "same":
      metrics.shadow({ ...counts(subject), differences: 0, failed: false });
      if (result.unfinished) reportUnfinished(log, about, subject, result.unfinished);
      return;
    case "candidate-failed":
      reportShadow(log, metrics, subject, { breakdown: "failed" }, trace);
      return;
    case "live-failed":
      metrics.shadow({ ...counts(subject), differences: subject.objects, failed: false });
      log({ level: "warn", msg: "shadow difference", ...about, liveFailed: true, differing: subject.objects });
      return;
    case "different": {
      const { differing } = result;
      metrics.shadow({ ...counts(subject), differences: differing, failed: false });
      for (const object of result.objects) {
        log({
          level: "warn",
          msg: "shadow difference",
          ...about,
          object: object.index,
          ...(object.uid === undefined ? {} : { objectUid: clip(object.uid) }),
          paths: object.paths.map((path) => clip(path, PATH_LIMIT)),
          ...(object.morePaths ? { morePaths: true } : {}),
          differing,
        });
      }
      if (result.unfinished) reportUnfinished(log, about, subject, result.unfinished);
    }
  }
}

/**
 * A comparison that ran out of work or time before the last object: what it found stands, and
 * this line says the rest was not compared (the trees were too large to compare in full).
 */
function reportUnfinished(log: Logger, about: object, subject: ShadowSubject, unfinished: Unfinished): void {
  log({
    level: "warn",
    msg: "shadow comparison cut short",
    ...about,
    compared: unfinished.compared,
    objects: subject.objects,
  });
}

function counts(subject: ShadowSubject) {
  return { crd: subject.crd, from: subject.from, to: subject.to };
}
