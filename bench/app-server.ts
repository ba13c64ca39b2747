import { serve } from "@hono/node-server";
import { createApp, createJsonLogger, readConfig, silentLogger } from "crdshift";
import { registry } from "../examples";

// crdshift's Hono app alone on @hono/node-server (log lines written straight to stdout): what
// `serve()` from crdshift/node answers every request with, without its start-up and metrics.
// One switch for the profile: BENCH_LOG=off drops the log lines, to measure what they cost over
// HTTP (CRDSHIFT_LOG_REVIEWS=all writes one per review).
const log =
  process.env.BENCH_LOG === "off"
    ? silentLogger
    : createJsonLogger((line, record) =>
        (record.level === "error" ? process.stderr : process.stdout).write(`${line}\n`),
      );
const app = createApp({
  registry,
  config: readConfig(process.env),
  log,
});
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
