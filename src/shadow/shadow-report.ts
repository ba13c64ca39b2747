import { clip } from "../json";
import type { Failure } from "../outcome";
import type { Logger } from "../log";
import type { Metrics } from "../metrics";
import type { ShadowSubject, ShadowVerdict } from "./shadow-comparison";

/** Paths named in one log line; the rest are counted (`morePaths`). */
const PATHS_PER_LINE = 10;
/** Lines about differing objects per review; each says how many objects differ in all. */
const LINES_PER_REVIEW = 5;
/** Characters of one path kept: paths hold keys, and keys can be long. */
const PATH_LIMIT = 200;

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
 * paths: never a value, and never a converter's message (it may quote the object).
 */
export function reportShadow(
  log: Logger,
  metrics: Metrics,
  subject: ShadowSubject,
  result: ShadowVerdict | ShadowBreakdown,
): void {
  const about = { uid: clip(subject.uid), crd: subject.crd, from: subject.from, to: subject.to };
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
      return;
    case "candidate-failed":
      reportShadow(log, metrics, subject, { breakdown: "failed" });
      return;
    case "live-failed":
      metrics.shadow({ ...counts(subject), differences: subject.objects, failed: false });
      log({ level: "warn", msg: "shadow difference", ...about, liveFailed: true, differing: subject.objects });
      return;
    case "different": {
      const differing = result.objects.length;
      metrics.shadow({ ...counts(subject), differences: differing, failed: false });
      for (const object of result.objects.slice(0, LINES_PER_REVIEW)) {
        log({
          level: "warn",
          msg: "shadow difference",
          ...about,
          object: object.index,
          ...(object.uid === undefined ? {} : { objectUid: clip(object.uid) }),
          paths: object.paths.slice(0, PATHS_PER_LINE).map((path) => clip(path, PATH_LIMIT)),
          ...(object.paths.length > PATHS_PER_LINE ? { morePaths: object.paths.length - PATHS_PER_LINE } : {}),
          differing,
        });
      }
    }
  }
}

function counts(subject: ShadowSubject) {
  return { crd: subject.crd, from: subject.from, to: subject.to };
}
