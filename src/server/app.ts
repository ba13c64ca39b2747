import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Config } from "./config";
import { BUSY, createAdmission, declaredLength, type RequestHead } from "./admission";
import { type BytesInFlight, createBytesInFlight, MAX_WAIT_MS } from "./bytes-in-flight";
import { drainBody } from "./drain-body";
import { type HttpReply, JSON_CONTENT_TYPE } from "./http-reply";
import { createReport } from "./report";
import { createReviewRoute } from "./review-route";
import { createStreamedBodyRead } from "./streamed-size";
import { type TraceFields, traceFields, traceparentFields } from "./trace-context";
import { jsonLogger, type Logger } from "../log";
import { type Metrics, noMetrics } from "../metrics";
import { heldBeforeRead, parsedFirst, type Registry, type ReplyBytes } from "../conversion";
import { loadShadow } from "../shadow";

export interface AppOptions {
  registry: Registry;
  config: Config;
  log?: Logger;
  /** Milliseconds; injectable so tests can drive the budget. */
  now?: () => number;
  /**
   * When this instance started (module load, in `now()` units). The apiserver's 30 s run from
   * when it sent the request, so a cold start spends the first request's budget.
   */
  startedAt?: number;
  /** The platform's own deadline for this request (Lambda: its remaining time), if any. */
  platformDeadline?: (c: Context) => number | undefined;
  metrics?: Metrics;
  /**
   * Runs work after the reply without delaying it. Default: `executionCtx.waitUntil` where the
   * platform has one (Workers), else the work simply continues (Node, and Lambda, where it
   * resumes with the next invocation).
   */
  defer?: (c: Context, work: Promise<void>) => void;
  /**
   * The caller's address as the platform saw it (the socket on Node, `CF-Connecting-IP` on
   * Workers, `requestContext.http.sourceIp` on Lambda), for CRDSHIFT_ALLOWED_SOURCES.
   */
  callerAddress?: (c: Context) => string | undefined;
  /**
   * The platform's own ids of this request, added to its review's log lines beside the caller's
   * `traceparent` ids, to join them to the platform's traces (Lambda: the X-Ray trace id).
   */
  platformTrace?: (c: Context) => TraceFields | undefined;
  /**
   * A candidate registry that also converts a sampled share of reviews (CRDSHIFT_SHADOW_SAMPLE)
   * after their reply, its differences counted and logged, never served (src/shadow/).
   */
  shadow?: Registry;
}

/** The app, and the bound on the memory its reviews hold at once (to watch it). */
export interface Webhook {
  app: Hono;
  inFlight: BytesInFlight;
}

/**
 * The one HTTP app, the same on every platform: routes and their composition. HTTP concerns live
 * in src/server/ (admission, the review route, the report of each request); what a review means
 * lives in protocol/ and engine/.
 * Statuses: 200 for every review, converted or failed (the apiserver shows the Failure message
 * to users); 4xx only for requests that are not reviews at all.
 */
export function createApp(options: AppOptions): Hono {
  return createWebhook(options).app;
}

export function createWebhook(options: AppOptions): Webhook {
  const { registry, config, log = jsonLogger, now = Date.now, startedAt, platformDeadline } = options;
  const { metrics = noMetrics, defer = deferAfterReply, callerAddress, platformTrace } = options;
  const report = createReport({ log, metrics, logReviews: config.logReviews, logObjectNames: config.logObjectNames });
  const admit = createAdmission({ config, log });
  const candidate = config.shadowSample > 0 ? options.shadow : undefined;
  const followUp = candidate
    ? loadShadow({ candidate, sample: config.shadowSample, limits: config, log, metrics, now })
    : undefined;
  const review = createReviewRoute({ registry, config, report, now, startedAt, followUp });
  // A short budget leaves less time to wait: half of it at most, the rest for the review.
  const inFlight = createBytesInFlight({
    capBytes: config.maxBytesInFlight,
    maxWaitMs: Math.min(MAX_WAIT_MS, config.budgetMs / 2),
  });
  const readStreamed = createStreamedBodyRead(config.bodyLimitBytes, report);
  const app = new Hono();

  const send = (c: Context, reply: HttpReply) => {
    if (reply.after) defer(c, reply.after);
    const headers = reply.headers ? { ...reply.headers, "Content-Type": JSON_CONTENT_TYPE } : JSON_HEADERS;
    const { body } = reply;
    if (typeof body === "string") return c.body(body, reply.status as ContentfulStatusCode, headers);
    // A large reply's bytes, written as they are: its length is known.
    return c.body(bytesStream(body), reply.status as ContentfulStatusCode, {
      ...headers,
      "Content-Length": String(body.byteLength),
    });
  };
  // A rejection answered before the body was read: see drainBody.
  const reject = async (c: Context, reply: HttpReply) => {
    await drainBody(c.req.raw, config.bodyLimitBytes);
    return send(c, reply);
  };

  // A webhook with a shadow candidate says so, for `crdshift doctor` and whoever rolls it out.
  const health = candidate ? { status: "ok", shadow: { sample: config.shadowSample } } : { status: "ok" };
  app.get("/healthz", (c) => c.json(health));

  const convert = async (c: Context) => {
    const { req } = c;
    const head: RequestHead = {
      method: req.method,
      token: req.param("token"),
      contentType: req.header("content-type"),
      declaredLength: declaredLength((name) => req.header(name)),
      callerAddress: () => callerAddress?.(c),
    };
    const rejection = admit(head);
    if (rejection) return reject(c, report.reject(rejection));
    // The budget runs from here, before the body is read.
    const arrival = { at: now(), platformDeadline: platformDeadline?.(c) };
    const length = head.declaredLength;
    // Counted from the declared length, or from nothing up as a body without one streams in;
    // then as what the body holds, once the engine has read its shape (review's `hold`).
    const reserved = length === undefined ? 0 : heldBeforeRead(length, config);
    // A body long enough to be scanned is counted as the least it holds until its scan says more.
    const unsized = length !== undefined && !parsedFirst(length, config);
    let lease = inFlight.tryReserve(reserved, unsized);
    if (!lease) {
      lease = await inFlight.reserve(reserved, unsized);
      if (!lease) return reject(c, report.reject(BUSY));
      // A caller that left while in line gets nothing (nginx's 499): its body is not read, nor converted.
      if (c.req.raw.signal.aborted) {
        lease.release();
        return c.body(null, 499 as ContentfulStatusCode);
      }
    }
    try {
      let body: string;
      if (length === undefined) {
        const read = await readStreamed(c.req.raw, lease);
        if ("rejected" in read) return send(c, read.rejected);
        body = read.text;
      } else {
        try {
          body = await c.req.text();
        } catch (error) {
          return send(c, report.unreadable(error));
        }
      }
      const trace = traceFields(traceparentFields(c.req.header("traceparent")), platformTrace?.(c));
      return send(c, await review(body, arrival, lease, trace));
    } finally {
      lease.release();
    }
  };

  app.all("/convert", convert);
  app.all("/convert/:token", convert);

  app.notFound((c) => reject(c, report.notFound()));
  app.onError((error, c) => send(c, report.internalError(error)));
  return { app, inFlight };
}

const JSON_HEADERS: Readonly<Record<string, string>> = { "Content-Type": JSON_CONTENT_TYPE };

/** A reply's bytes as a stream, each piece let go once handed over. */
function bytesStream({ chunks }: ReplyBytes): ReadableStream<Uint8Array> {
  const pending = chunks.slice().reverse();
  return new ReadableStream({
    pull(controller) {
      const next = pending.pop();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

/** AppOptions.defer's default: the platform's `waitUntil` where it has one. */
function deferAfterReply(c: Context, work: Promise<void>): void {
  let waitUntil: ((work: Promise<void>) => void) | undefined;
  try {
    const ctx = c.executionCtx;
    waitUntil = ctx.waitUntil.bind(ctx);
  } catch {
    // No execution context (Node, Lambda): the promise runs on by itself.
  }
  waitUntil?.(work.catch(() => {}));
}
