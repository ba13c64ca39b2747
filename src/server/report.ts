import { clip, REASON_LIMIT } from "../json";
import type { LogReviews } from "./config";
import { describeObject, summarize, thrownText } from "../conversion";
import type { Logger } from "../log";
import { type Metrics, noMetrics } from "../metrics";
import { type Failure, type Rejection, REJECTION_STATUS } from "../outcome";
import type { ConversionReview } from "../kube";
import type { TextReply } from "./http-reply";
import type { TraceFields } from "./trace-context";

/**
 * What the app tells about each request: its log line, the metrics, and the reply of a rejection.
 * Platform-neutral: replies are plain HttpReply values, whoever writes them.
 */
export interface Report {
  /**
   * Every rejection is counted; 4xx that say something about the caller are logged too. The
   * error and the detail are clipped: they may quote what the caller sent.
   */
  reject(rejection: Rejection): TextReply;
  notFound(): TextReply;
  /**
   * A body that broke off or was malformed in transit (an upload cut short, bad chunked
   * encoding): the caller's fault, not ours. On Node the socket is usually gone already.
   */
  unreadable(error: unknown): TextReply;
  /**
   * The metrics of one review answered, converted or failed, and its log line (failures always;
   * successes when CRDSHIFT_LOG_REVIEWS=all), with the request's `trace` ids if it has any.
   * Returns the work to finish after the reply.
   */
  reviewed(
    review: ConversionReview,
    failure: Failure | undefined,
    durationMs: number,
    cold: boolean,
    trace?: TraceFields,
  ): Promise<void> | undefined;
  /** A bug of ours: logged, and a 500 that never carries a stack trace or anything from the request. */
  internalError(error: unknown): TextReply;
}

export interface ReportOptions {
  log: Logger;
  metrics: Metrics;
  /** Which reviews get a log line (Config.logReviews). */
  logReviews: LogReviews;
  /** Debug switch: name each review's objects in its log line. */
  logObjectNames: boolean;
}

export const NOT_FOUND: Rejection = { reason: "not-found", message: "not found" };

/** Built once per app: nothing here allocates per request beyond the records it writes. */
export function createReport({ log, metrics, logReviews, logObjectNames }: ReportOptions): Report {
  const reject: Report["reject"] = ({ reason, message, headers, detail }) => {
    const status = REJECTION_STATUS[reason];
    const error = clip(message, REASON_LIMIT);
    metrics.rejected(reason);
    // 404s are the internet knocking: counted, not logged line by line.
    if (status !== 404) {
      log({
        level: "warn",
        msg: "request rejected",
        status,
        reason,
        error,
        ...(detail === undefined ? {} : { detail: clip(detail, REASON_LIMIT) }),
      });
    }
    return { status, body: JSON.stringify({ error }), ...(headers ? { headers } : {}), after: metrics.pending() };
  };
  return {
    reject,
    notFound: () => reject(NOT_FOUND),
    unreadable: (error) =>
      reject({
        reason: "body-unreadable",
        message: "the request body could not be read: the upload broke off or was malformed",
        detail: thrownText(error),
      }),
    reviewed(review, failure, durationMs, cold, trace) {
      // A line for every read is log volume (and ingestion cost) that the metrics already cover.
      const logged = failure !== undefined || logReviews === "all";
      if (!logged && metrics === noMetrics) return undefined;
      const { request } = review;
      const summary = summarize(request.objects);
      const result = failure ? "failure" : "success";
      if (logged) {
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
          ...trace,
        });
      }
      metrics.review({
        crd: summary.crd,
        from: summary.from,
        to: request.desiredAPIVersion.slice(request.desiredAPIVersion.lastIndexOf("/") + 1),
        result,
        ...(failure ? { cause: failure.cause } : {}),
        objects: request.objects.length,
        durationMs,
      });
      return metrics.pending();
    },
    internalError(error) {
      log({ level: "error", msg: "internal error", error: thrownText(error) });
      return { status: 500, body: JSON.stringify({ error: "internal error" }) };
    },
  };
}

/** Debug only: who was in the review (`ns/name`), at most 100 of them; never contents. */
function objectNames(objects: readonly unknown[]): string[] {
  return objects.slice(0, 100).map((object, index) => describeObject(index, object));
}
