import type { Hono } from "hono";
import { registry } from "../../examples";
import { createApp } from "../app";
import { ConfigError, readConfig } from "../config";
import { jsonLogger } from "../log";
import { createMetrics } from "../metrics";

/**
 * Cloudflare Workers entry. Configuration lives in the Worker's `env` (vars from
 * wrangler.toml, the token as a secret), which only exists once a request arrives: the app is
 * built on the first request and kept for the isolate's life.
 */
// No cold-start accounting here: isolates start in milliseconds, and clocks outside a request
// are not to be trusted on Workers (time only advances around I/O).
let app: Hono | undefined;

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: unknown): Response | Promise<Response> {
    if (!app) {
      try {
        const config = readConfig(env);
        // CloudWatch keys, if used, are Worker secrets (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY);
        // metrics leave through waitUntil, after the reply.
        const metrics = createMetrics(config.metrics, { log: jsonLogger, write: (line) => console.log(line) });
        // Cloudflare's edge sets CF-Connecting-IP itself, overwriting whatever a client sent.
        app = createApp({ registry, config, log: jsonLogger, metrics, sourceAddress: (c) => c.req.header("cf-connecting-ip") });
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        jsonLogger({ level: "error", msg: "configuration error", error: error.message });
        return Response.json({ error: "crdshift is misconfigured; see the Worker's logs" }, { status: 500 });
      }
    }
    return app.fetch(request, env, ctx as never);
  },
};
