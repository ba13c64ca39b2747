import type { IncomingMessage } from "node:http";
import { serve } from "@hono/node-server";
import type { Context } from "hono";
import { registry } from "../../examples";
import { createApp } from "../app";
import { readConfig } from "../config";
import { createJsonLogger } from "../log";
import { createMetrics } from "../metrics";
import { sha256Hex } from "./sha256";

// Local server: `npm start`. Binds to loopback unless HOST says otherwise.
const startedAt = Date.now();
const config = readConfig(process.env);
const port = Number(process.env.PORT ?? 8787);
const hostname = process.env.HOST ?? "127.0.0.1";
// Straight to the streams: console.log's formatting costs more than the line is worth here.
const log = createJsonLogger((line, record) => (record.level === "error" ? process.stderr : process.stdout).write(`${line}\n`));
const metrics = createMetrics(config.metrics, { log, write: (line) => process.stdout.write(`${line}\n`) });
// The socket's peer: the only address on Node nobody can forge with a header.
const sourceAddress = (c: Context) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
const app = createApp({ registry, config, log, startedAt, metrics, sourceAddress, tokenHash: sha256Hex });

const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
  const path = config.tokens.length > 0 ? "/convert/$CRDSHIFT_TOKEN" : "/convert";
  const kinds = registry.kinds.map((k) => `${k.kind}.${k.group} (${[...k.versions.keys()].join(", ")})`);
  console.log(
    [
      `crdshift listening on http://${host}:${info.port}${path}`,
      `serving ${kinds.join("; ")}`,
      "",
      "Put this in each CRD's spec (the apiserver needs an https URL it can reach, e.g. your Workers or Lambda URL):",
      "  conversion:",
      "    strategy: Webhook",
      "    webhook:",
      '      conversionReviewVersions: ["v1", "v1beta1"]',
      "      clientConfig:",
      `        url: https://<your-host>${path}`,
      "",
      `Try it: curl -s -H 'Content-Type: application/json' --data @examples/requests/docs-v1.json http://${host}:${info.port}${path}`,
    ].join("\n"),
  );
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
