import type { Hono } from "hono";
import { WORKERS_DEFAULTS, misconfiguredBody, startApp } from "../../server";
import { jsonLogger } from "../../log";
import type { Registry } from "../../conversion";
import { workersTrace } from "./ray-id";

/** What a module Worker default-exports. */
export interface CrdshiftWorker {
  fetch(request: Request, env: Record<string, unknown>, ctx: unknown): Response | Promise<Response>;
}

export interface WorkerOptions {
  /**
   * For `CRDSHIFT_METRICS=cloudwatch`: `() => import("@aws-sdk/client-cloudwatch")`. The SDK is
   * in the Worker only if it is passed here; bundled with code splitting, it stays a module of
   * its own that a Worker without that setting never loads.
   */
  loadCloudWatchSdk?: () => Promise<unknown>;
  /**
   * A candidate registry to shadow: it also converts a sampled share of reviews
   * (CRDSHIFT_SHADOW_SAMPLE) after their reply, in `waitUntil`; differences are counted and
   * logged, never served. See docs/platforms.md: Shadow.
   */
  shadow?: Registry;
}

/**
 * The Cloudflare Worker serving `registry`: default-export it from the Worker's main module.
 * Configuration lives in the Worker's `env` (vars from wrangler.toml, the token as a secret),
 * which only exists once a request arrives: the app is built on the first request and kept for
 * the isolate's life.
 *
 * @example
 * import { createWorker } from "crdshift/workers";
 * import { registry } from "./registry.js";
 * export default createWorker(registry);
 */
export function createWorker(registry: Registry, options: WorkerOptions = {}): CrdshiftWorker {
  // No cold-start accounting here: isolates start in milliseconds, and clocks outside a request
  // are not to be trusted on Workers (time only advances around I/O).
  let app: Hono | undefined;
  return {
    fetch(request, env, ctx) {
      if (!app) {
        const started = startApp(registry, {
          env,
          defaults: WORKERS_DEFAULTS,
          log: jsonLogger,
          // CloudWatch keys, if used, are Worker secrets (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY);
          // metrics leave through waitUntil, after the reply.
          writeMetricLine: (line) => console.log(line),
          ...(options.loadCloudWatchSdk ? { loadCloudWatchSdk: options.loadCloudWatchSdk } : {}),
          ...(options.shadow ? { shadow: options.shadow } : {}),
          // Cloudflare's edge sets CF-Connecting-IP itself, overwriting whatever a client sent.
          callerAddress: (c) => c.req.header("cf-connecting-ip"),
          platformTrace: workersTrace,
        });
        if (!started.ok)
          return new Response(misconfiguredBody("Worker"), {
            status: 500,
            headers: { "content-type": "application/json" },
          });
        app = started.app;
      }
      return app.fetch(request, env, ctx as never);
    },
  };
}
