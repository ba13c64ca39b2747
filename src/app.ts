import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { timingSafeEqual } from "hono/utils/buffer";
import { clip, REASON_LIMIT } from "./clip";
import type { Config } from "./config";
import { convertBody } from "./engine/convert-body";
import { describeObject } from "./engine/describe";
import { summarize } from "./engine/summary";
import { jsonLogger, type Logger } from "./log";
import { type Metrics, noMetrics } from "./metrics/metrics";
import type { RejectionReason } from "./outcomes";
import type { Registry } from "./registry";

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
   * The hash tokens go through before their constant-time comparison. Default: SHA-256 from Web
   * Crypto (Hono's). Node and Lambda pass node:crypto's: the same hash without loading Node's
   * Web Crypto on a cold start (2-6 ms).
   */
  tokenHash?: (text: string) => string | Promise<string>;
}

/**
 * The one HTTP app, the same on every platform. HTTP concerns live here (routes, the path
 * token, limits, status codes); what a review means lives in protocol/ and engine/.
 * Statuses: 200 for every review, converted or failed (the apiserver shows the Failure message
 * to users); 4xx only for requests that are not reviews at all.
 */
export function createApp(options: AppOptions): Hono {
  const { registry, config, log = jsonLogger, now = Date.now, startedAt, platformDeadline } = options;
  const { metrics = noMetrics, defer = deferAfterReply, callerAddress, tokenHash } = options;
  const app = new Hono();
  let cold = true;
  let unknownCallerLogged = false;

  app.get("/healthz", (c) => c.json({ status: "ok" }));

  /**
   * Every refusal is counted; 4xx that say something about the caller are logged too (`detail`:
   * what only the log needs). The error is clipped: it may quote what the caller sent.
   */
  const refuse = (
    c: Context,
    reason: RejectionReason,
    status: 400 | 404 | 405 | 413 | 415,
    message: string,
    options: { headers?: Record<string, string>; detail?: string } = {},
  ) => {
    const error = clip(message, REASON_LIMIT);
    const detail = options.detail === undefined ? {} : { detail: clip(options.detail, REASON_LIMIT) };
    metrics.rejected(reason);
    // 404s are the internet knocking: counted, not logged line by line.
    if (status !== 404) log({ level: "warn", msg: "request rejected", status, reason, error, ...detail });
    flushMetricsAfterReply(c);
    return c.json({ error }, status, options.headers);
  };
  /**
   * A body that broke off or was malformed in transit (an upload cut short, bad chunked
   * encoding): the caller's fault, not ours. On Node the socket is usually gone already.
   */
  const unreadable = (c: Context, error: unknown) =>
    refuse(c, "body-unreadable", 400, "the request body could not be read: the upload broke off or was malformed", {
      detail: describeError(error),
    });
  const flushMetricsAfterReply = (c: Context) => {
    const work = metrics.pending();
    if (work) defer(c, work);
  };
  const notFound = (c: Context) => refuse(c, "not-found", 404, "not found");
  const tooLarge = (c: Context) =>
    refuse(c, "too-large", 413, `request body is larger than the limit of ${config.bodyLimitBytes} bytes`);
  // Bodies without a length are counted as they stream in, by Hono's bodyLimit.
  const streamedSizeGuard = bodyLimit({ maxSize: config.bodyLimitBytes, onError: tooLarge });

  /** Whether the caller's network may call at all; unknown addresses are refused (fail closed). */
  function callerAllowed(c: Context): boolean {
    const allowed = config.allowedCallers;
    if (!allowed) return true;
    const address = callerAddress?.(c);
    if (address === undefined && !unknownCallerLogged) {
      unknownCallerLogged = true;
      log({
        level: "error",
        msg: "CRDSHIFT_ALLOWED_SOURCES is set, but this platform gives no caller address: refusing every request",
      });
    }
    return address !== undefined && allowed.matches(address);
  }

  /**
   * Why this request is refused before its body is read, in this order: the caller's network
   * and the token (so nothing else is revealed without them), the method, the content type,
   * the size. Plain checks in a row rather than a middleware chain: every request passes them.
   */
  async function refusal(c: Context): Promise<Response | undefined> {
    // Networks first, then the token: neither reveals anything to a caller who fails it.
    if (!callerAllowed(c)) return refuse(c, "source-not-allowed", 404, "not found");
    const given = c.req.param("token");
    if (config.tokens.length === 0 ? given !== undefined : !(await tokenMatches(config.tokens, given, tokenHash)))
      return notFound(c);
    if (c.req.method !== "POST") {
      return refuse(c, "method-not-allowed", 405, "method not allowed: send the ConversionReview with POST", {
        headers: { Allow: "POST" },
      });
    }
    if (!isJsonMediaType(c.req.header("content-type"))) {
      return refuse(c, "unsupported-media-type", 415, "unsupported media type: send Content-Type: application/json");
    }
    // The apiserver always sends Content-Length. Deciding from it alone keeps the Node
    // adapter's fast body read (touching the body stream first would build a full Request).
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) {
      let within = false;
      let response: Response | undefined;
      try {
        // Reads the whole body, counting it: a broken upload fails here.
        response =
          (await streamedSizeGuard(c, async () => {
            within = true;
          })) ?? undefined;
      } catch (error) {
        return unreadable(c, error);
      }
      return within ? undefined : (response ?? tooLarge(c));
    }
    return Number(length) > config.bodyLimitBytes ? tooLarge(c) : undefined;
  }

  const convert = async (c: Context) => {
    const refused = await refusal(c);
    if (refused) return refused;
    const started = now();
    const first = cold;
    cold = false;
    const deadline = reviewDeadline(started, first, c);
    let body: string;
    try {
      body = await c.req.text();
    } catch (error) {
      return unreadable(c, error);
    }
    const outcome = await convertBody(registry, body, {
      limits: config,
      budget: { deadline, budgetMs: Math.max(0, Math.round(deadline - started)), now },
    });
    if (!outcome.ok) return refuse(c, outcome.reason, 400, outcome.message);
    const { review, failure } = outcome;
    const { request } = review;
    const durationMs = now() - started;
    const summary = summarize(request.objects);
    const result = failure ? "failure" : "success";
    log({
      level: failure ? "warn" : "info",
      msg: "review converted",
      uid: clip(request.uid),
      reviewVersion: review.apiVersion,
      desiredAPIVersion: clip(request.desiredAPIVersion),
      kinds: summary.kinds,
      objects: request.objects.length,
      durationMs,
      cold: first,
      result,
      ...(failure ?? {}),
      ...(config.logObjectNames ? { objectNames: objectNames(request.objects) } : {}),
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
    return c.body(outcome.text, 200, { "Content-Type": "application/json" });
  };

  /** The earliest of: the configured budget (less a cold start), and the platform's limit. */
  function reviewDeadline(started: number, first: boolean, c: Context): number {
    // Capped at Lambda's 10 s init limit: a clock that cannot be trusted must not starve a request.
    const coldStartMs = first && startedAt !== undefined ? Math.min(Math.max(0, started - startedAt), 10_000) : 0;
    const own = started + config.budgetMs - coldStartMs;
    const platform = platformDeadline?.(c);
    return platform === undefined ? own : Math.min(own, platform);
  }

  app.all("/convert", convert);
  app.all("/convert/:token", convert);

  app.notFound(notFound);
  app.onError((error, c) => {
    // Never a stack trace (or anything from the request) in the reply.
    log({ level: "error", msg: "internal error", error: clip(describeError(error), REASON_LIMIT) });
    return c.json({ error: "internal error" }, 500);
  });
  return app;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

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

/** Debug only: who was in the review (`ns/name`), at most 100 of them; never contents. */
function objectNames(objects: readonly unknown[]): string[] {
  return objects.slice(0, 100).map((object, index) => describeObject(index, object));
}

async function tokenMatches(
  tokens: readonly string[],
  given: string | undefined,
  hash?: (text: string) => string | Promise<string>,
): Promise<boolean> {
  if (given === undefined) return false;
  // Compare against every token, so timing does not tell which one matched.
  const results = await Promise.all(tokens.map((token) => timingSafeEqual(token, given, hash)));
  return results.includes(true);
}

function isJsonMediaType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(";", 1)[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}
