import type { Context } from "hono";
import { clip, REASON_LIMIT } from "../clip";
import { describeObject } from "../engine/describe";
import { summarize } from "../engine/summary";
import type { Logger } from "../log";
import type { Metrics } from "../metrics/metrics";
import type { Failure, RejectionReason } from "../outcomes";
import type { ConversionReview } from "../protocol";

/** The 4xx statuses the app answers with: only for requests that are not reviews at all. */
export type RefusalStatus = 400 | 404 | 405 | 413 | 415;

/** What the app tells about each request: one log line, the metrics, and the reply of a refusal. */
export interface Report {
  /**
   * Every refusal is counted; 4xx that say something about the caller are logged too (`detail`:
   * what only the log needs). The error is clipped: it may quote what the caller sent.
   */
  refuse(
    c: Context,
    reason: RejectionReason,
    status: RefusalStatus,
    message: string,
    options?: { headers?: Record<string, string>; detail?: string },
  ): Response;
  notFound(c: Context): Response;
  /**
   * A body that broke off or was malformed in transit (an upload cut short, bad chunked
   * encoding): the caller's fault, not ours. On Node the socket is usually gone already.
   */
  unreadable(c: Context, error: unknown): Response;
  /** The log line and metrics of one review answered, converted or failed. */
  reviewed(c: Context, review: ConversionReview, failure: Failure | undefined, durationMs: number, cold: boolean): void;
  /** A bug of ours: logged, and a 500 that never carries a stack trace or anything from the request. */
  internalError(error: unknown, c: Context): Response;
}

export interface ReportOptions {
  log: Logger;
  metrics: Metrics;
  /** Runs work after the reply without delaying it (see AppOptions.defer). */
  defer: (c: Context, work: Promise<void>) => void;
  /** Debug switch: name each review's objects in its log line. */
  logObjectNames: boolean;
}

/** Built once per app: nothing here allocates per request beyond the records it writes. */
export function createReport({ log, metrics, defer, logObjectNames }: ReportOptions): Report {
  const flushMetricsAfterReply = (c: Context) => {
    const work = metrics.pending();
    if (work) defer(c, work);
  };
  const refuse: Report["refuse"] = (c, reason, status, message, options = {}) => {
    const error = clip(message, REASON_LIMIT);
    const detail = options.detail === undefined ? {} : { detail: clip(options.detail, REASON_LIMIT) };
    metrics.rejected(reason);
    // 404s are the internet knocking: counted, not logged line by line.
    if (status !== 404) log({ level: "warn", msg: "request rejected", status, reason, error, ...detail });
    flushMetricsAfterReply(c);
    return c.json({ error }, status, options.headers);
  };
  return {
    refuse,
    notFound: (c) => refuse(c, "not-found", 404, "not found"),
    unreadable: (c, error) =>
      refuse(c, "body-unreadable", 400, "the request body could not be read: the upload broke off or was malformed", {
        detail: describeError(error),
      }),
    reviewed(c, review, failure, durationMs, cold) {
      const { request } = review;
      const summary = summarize(request.objects);
      const result = failure ? "failure" : "success";
      log({
        // crdshift's own bug is an error to whoever runs it; a user's failing object a warning.
        level: failure ? (failure.cause === "internal-error" ? "error" : "warn") : "info",
        msg: "review converted",
        uid: clip(request.uid),
        reviewVersion: review.apiVersion,
        desiredAPIVersion: clip(request.desiredAPIVersion),
        kinds: summary.kinds,
        objects: request.objects.length,
        durationMs,
        cold,
        result,
        ...(failure ?? {}),
        ...(logObjectNames ? { objectNames: objectNames(request.objects) } : {}),
      });
      metrics.review({
        crd: summary.crd,
        from: summary.from,
        to: request.desiredAPIVersion.slice(request.desiredAPIVersion.lastIndexOf("/") + 1),
        result,
        ...(failure ? { cause: failure.cause } : {}),
        objects: request.objects.length,
        durationMs,
      });
      flushMetricsAfterReply(c);
    },
    internalError(error, c) {
      log({ level: "error", msg: "internal error", error: clip(describeError(error), REASON_LIMIT) });
      return c.json({ error: "internal error" }, 500);
    },
  };
}

/** AppOptions.defer's default: the platform's `waitUntil` where it has one. */
export function deferAfterReply(c: Context, work: Promise<void>): void {
  let waitUntil: ((work: Promise<void>) => void) | undefined;
  try {
    const ctx = c.executionCtx;
    waitUntil = ctx.waitUntil.bind(ctx);
  } catch {
    // No execution context (Node, Lambda): the promise runs on by itself.
  }
  waitUntil?.(work.catch(() => {}));
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Debug only: who was in the review (`ns/name`), at most 100 of them; never contents. */
function objectNames(objects: readonly unknown[]): string[] {
  return objects.slice(0, 100).map((object, index) => describeObject(index, object));
}
