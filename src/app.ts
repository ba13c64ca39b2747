import { type Context, Hono } from "hono";
import type { Config } from "./config";
import { convertBody } from "./engine/convert-body";
import { createAdmission } from "./http/admission";
import { reviewDeadline } from "./http/review-deadline";
import { createReport, deferAfterReply } from "./http/report";
import { jsonLogger, type Logger } from "./log";
import { type Metrics, noMetrics } from "./metrics/metrics";
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
 * The one HTTP app, the same on every platform: routes and their composition. HTTP concerns live
 * in src/http/ (admission, the deadline, the report of each request); what a review means lives
 * in protocol/ and engine/.
 * Statuses: 200 for every review, converted or failed (the apiserver shows the Failure message
 * to users); 4xx only for requests that are not reviews at all.
 */
export function createApp(options: AppOptions): Hono {
  const { registry, config, log = jsonLogger, now = Date.now, startedAt, platformDeadline } = options;
  const { metrics = noMetrics, defer = deferAfterReply, callerAddress, tokenHash } = options;
  const { budgetMs } = config;
  const report = createReport({ log, metrics, defer, logObjectNames: config.logObjectNames });
  const admit = createAdmission({ config, log, report, callerAddress, tokenHash });
  const app = new Hono();
  let cold = true;

  app.get("/healthz", (c) => c.json({ status: "ok" }));

  const convert = async (c: Context) => {
    const refused = await admit(c);
    if (refused) return refused;
    const started = now();
    const first = cold;
    cold = false;
    const deadline = reviewDeadline(started, budgetMs, first ? startedAt : undefined, platformDeadline?.(c));
    let body: string;
    try {
      body = await c.req.text();
    } catch (error) {
      return report.unreadable(c, error);
    }
    const outcome = await convertBody(registry, body, {
      limits: config,
      budget: { deadline, budgetMs: Math.max(0, Math.round(deadline - started)), now },
    });
    if (!outcome.ok) return report.refuse(c, outcome.reason, 400, outcome.message);
    report.reviewed(c, outcome.review, outcome.failure, now() - started, first);
    return c.body(outcome.text, 200, { "Content-Type": "application/json" });
  };

  app.all("/convert", convert);
  app.all("/convert/:token", convert);

  app.notFound(report.notFound);
  app.onError(report.internalError);
  return app;
}
