import {
  type BodyOutcome,
  convertBody,
  DEADLINE_PASSED,
  isError,
  textField,
  withDeadline,
  type ReviewLimits,
  type Registry,
} from "../conversion";
import type { Logger } from "../log";
import type { Metrics } from "../metrics";
import { compareReplies, readSent, shadowSubject } from "./shadow-comparison";
import { pacedRegistry } from "./paced-registry";
import { REPORTED, reportShadow, type ShadowBreakdown, type TraceIds } from "./shadow-report";

/**
 * Time a candidate has for one review, from when it starts (after the live reply), before it
 * is abandoned and counted as failed. Generous for a conversion, short next to a Worker's
 * `waitUntil` and a Lambda invocation.
 */
const SHADOW_BUDGET_MS = 1_000;
/**
 * After a shadow that took `t`, none starts for `IDLE_FACTOR * t`: whatever the candidate does,
 * shadow work holds at most one part in IDLE_FACTOR + 1 of an instance's time.
 */
const IDLE_FACTOR = 9;
/**
 * A shadow that could not start within this long of its review is dropped: the event loop was
 * busy with live requests, or the instance was frozen between them (Lambda, after a result),
 * and would otherwise run the candidate in the next request's time.
 */
const START_WITHIN_MS = 100;
/**
 * Longest request text shadowed, in characters. The shadow reads a review three more times (the
 * candidate's parse, the comparison's, each reply's); on a large LIST that is memory a Worker's
 * isolate, shared with the requests in flight, may not have. Reads are one object; this still
 * takes a LIST of about a thousand.
 */
export const MAX_SHADOW_CHARS = 1024 * 1024;
/**
 * Most bytes of one converted object, and of the candidate's whole reply, the shadow reads:
 * twice the request or the live reply, whichever is longer, and never less than twice
 * CANDIDATE_READ_FLOOR. A conversion answers with about what it was sent; the engine fails a
 * candidate past this (`reply-too-large`, or its bound on a converter's result, counted as it
 * reads) before the shadow parses its reply, so one that answers a small review with millions
 * of items costs a read of about the review's size, not a parse and a walk of all it made.
 */
const CANDIDATE_READ_FACTOR = 2;
const CANDIDATE_READ_FLOOR = 64 * 1024;
/**
 * Pairs of values the comparison compares between two turns of the event loop: a slice is
 * short next to a review, so a live request waits at most one behind a comparison.
 */
export const COMPARISON_SLICE_STEPS = 10_000;
/**
 * Pairs of values compared in all for one review: more than any review under MAX_SHADOW_CHARS
 * holds, on both sides, so only a candidate that made far more than it was given reaches it.
 */
export const MAX_COMPARISON_STEPS = 1_000_000;

export interface ShadowOptions {
  candidate: Registry;
  /** Share of reviews shadowed, 0 to 1 (Config.shadowSample). */
  sample: number;
  limits: ReviewLimits;
  log: Logger;
  metrics: Metrics;
  /** Milliseconds. */
  now: () => number;
  random?: () => number;
  /** The candidate's time per review; default SHADOW_BUDGET_MS. */
  budgetMs?: number;
  /** Runs `work` once the live reply is out: `setImmediate` on Node, else a zero timer. */
  later?: (work: () => void) => void;
}

/**
 * Given an answered review's request text and its live reply, starts the candidate on a sampled
 * share of them, after the reply, and returns the work to wait for (undefined: not sampled).
 * Never throws and never rejects. At most one shadow runs at a time: a review arriving while one
 * runs is not sampled, so shadow work cannot pile up however slow the candidate is.
 * `trace` (the review's trace ids, as its own log line has them) goes into every line it writes.
 */
export type Shadow = (body: string, liveReply: string, trace?: TraceIds) => Promise<void> | undefined;

export function createShadow(options: ShadowOptions): Shadow {
  const { sample, limits, log, metrics, now } = options;
  const random = options.random ?? Math.random;
  const budgetMs = options.budgetMs ?? SHADOW_BUDGET_MS;
  const later = options.later ?? defaultLater;
  const nextTurn = () => new Promise<void>((resolve) => later(resolve));
  let running = false;
  let idleUntil = Number.NEGATIVE_INFINITY;

  const run = async (body: string, liveReply: string, trace: TraceIds | undefined): Promise<void> => {
    const started = now();
    try {
      // The candidate's own parse of the request's text: it never sees an object the live
      // converters saw, nor the live reply's.
      const budget = { deadline: started + budgetMs, budgetMs, now };
      const candidate = pacedRegistry(options.candidate, nextTurn);
      const readBytes = CANDIDATE_READ_FACTOR * Math.max(CANDIDATE_READ_FLOOR, body.length, liveReply.length);
      const candidateLimits: ReviewLimits = {
        ...limits,
        maxObjectBytes: Math.min(limits.maxObjectBytes, readBytes),
        replyLimitBytes: Math.min(limits.replyLimitBytes ?? Number.POSITIVE_INFINITY, readBytes),
      };
      let outcome: BodyOutcome | ShadowBreakdown;
      try {
        // The engine meets the deadline itself; this bounds anything else that would not settle.
        outcome = await withDeadline(convertBody(candidate, body, { limits: candidateLimits, budget }), budget);
      } catch (error) {
        outcome = error === DEADLINE_PASSED ? { breakdown: "timed-out" } : { breakdown: "threw" };
      }
      // Each read below is a turn of its own: live requests that came in meanwhile go first.
      await nextTurn();
      const sent = readSent(body);
      const subject = shadowSubject(sent);
      if ("breakdown" in outcome) return reportShadow(log, metrics, subject, outcome, trace);
      if (!outcome.ok) return reportShadow(log, metrics, subject, { breakdown: "rejected" }, trace);
      await nextTurn();
      const verdict = await compareReplies(sent, liveReply, outcome.text, REPORTED, {
        sliceSteps: COMPARISON_SLICE_STEPS,
        maxSteps: MAX_COMPARISON_STEPS,
        expired: () => now() > budget.deadline,
        nextTurn,
      });
      if (verdict.outcome === "candidate-failed") {
        const failure = outcome.failure;
        const breakdown: ShadowBreakdown =
          failure?.cause === "budget-exceeded"
            ? { breakdown: "timed-out" }
            : { breakdown: "failed", ...(failure ? { cause: failure.cause, code: failure.code } : {}) };
        return reportShadow(log, metrics, subject, breakdown, trace);
      }
      reportShadow(log, metrics, subject, verdict, trace);
    } catch (error) {
      // crdshift's own bug here must not become the process's: logged, without the request.
      // Named without trusting it: whatever was thrown, this catch must not throw in its turn.
      const name = isError(error) ? textField(error, "name") : undefined;
      log({ level: "error", msg: "shadow comparison failed", error: name ?? "unknown", ...trace });
    } finally {
      const finished = now();
      idleUntil = finished + IDLE_FACTOR * Math.max(0, finished - started);
      running = false;
    }
  };

  return (body, liveReply, trace) => {
    try {
      if (running || sample <= 0 || body.length > MAX_SHADOW_CHARS) return undefined;
      if (random() >= sample || now() < idleUntil) return undefined;
      running = true;
      const sampledAt = now();
      return new Promise<void>((resolve) =>
        later(() => {
          if (now() - sampledAt <= START_WITHIN_MS) return void run(body, liveReply, trace).then(resolve, resolve);
          running = false;
          resolve();
        }),
      );
    } catch {
      running = false;
      return undefined;
    }
  };
}

function defaultLater(work: () => void): void {
  // setImmediate runs after the I/O callback that wrote the reply; Workers have only timers.
  if (typeof setImmediate === "function") setImmediate(work);
  else setTimeout(work, 0);
}
