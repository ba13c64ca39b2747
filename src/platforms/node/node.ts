import type { AddressInfo } from "node:net";
import type { ServerType } from "@hono/node-server";
import { createJsonLogger } from "../../log";
import { kindLabel } from "../../kube";
import type { Registry } from "../../conversion";
import { importCloudWatchSdk } from "../../metrics/cloudwatch-sdk";
import { createNodeServer, nodeCallerAddress } from "./node-server";
import { startApp } from "../../server";

export interface ServeOptions {
  /** Port to listen on; 0 picks a free one. Default: `PORT` from the environment, else 8787. */
  port?: number;
  /** Address to bind. Default: `HOST` from the environment, else 127.0.0.1 (loopback only). */
  hostname?: string;
  /** Where `CRDSHIFT_*`, `PORT` and `HOST` are read from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Print the URL, the kinds served and the CRD stanza to use once listening. Default: true. */
  banner?: boolean;
  /** Close the server on SIGINT and SIGTERM, then exit. Default: true. */
  handleSignals?: boolean;
  /**
   * A candidate registry to shadow: it also converts a sampled share of reviews
   * (CRDSHIFT_SHADOW_SAMPLE) after their reply is written, differences counted and logged,
   * never served. See docs/platforms.md: Shadow.
   */
  shadow?: Registry;
}

export interface CrdshiftServer {
  /** Resolves once the server listens, with the webhook's URL (its path without the token). */
  listening: Promise<{ url: string; address: string; port: number }>;
  /** The underlying `node:http` server. */
  server: ServerType;
  /** Stops accepting connections; resolves when the open ones are done. */
  close(): Promise<void>;
}

/**
 * Serves `registry` over HTTP on Node: the conversion webhook at `/convert` (or
 * `/convert/<CRDSHIFT_TOKEN>`), configured from the environment as on every platform.
 * Throws a `ConfigError` at once if the configuration is bad.
 *
 * @example
 * import { serve } from "crdshift/node";
 * import { registry } from "./registry.js";
 * serve(registry);
 */
export function serve(registry: Registry, options: ServeOptions = {}): CrdshiftServer {
  const startedAt = Date.now();
  const env = options.env ?? process.env;
  const port = options.port ?? Number(env.PORT ?? 8787);
  const hostname = options.hostname ?? env.HOST ?? "127.0.0.1";
  // Straight to the streams: console.log's formatting costs more than the line is worth here.
  const log = createJsonLogger((line, record) =>
    (record.level === "error" ? process.stderr : process.stdout).write(`${line}\n`),
  );
  const writeMetricLine = (line: string) => process.stdout.write(`${line}\n`);
  const started = startApp(registry, {
    env,
    log,
    writeMetricLine,
    loadCloudWatchSdk: importCloudWatchSdk,
    startedAt,
    callerAddress: nodeCallerAddress,
    ...(options.shadow ? { shadow: options.shadow } : {}),
  });
  if (!started.ok) throw started.error;
  const path = started.config.tokens.length > 0 ? "/convert/$CRDSHIFT_TOKEN" : "/convert";

  let listened: (value: { url: string; address: string; port: number }) => void;
  const listening = new Promise<{ url: string; address: string; port: number }>((resolve) => (listened = resolve));
  const server = createNodeServer(started.app, hostname);
  server.listen(port, hostname, () => {
    const info = server.address() as AddressInfo;
    const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
    const url = `http://${host}:${info.port}${path}`;
    if (options.banner ?? true) console.log(banner(registry, url, path));
    listened({ url, address: info.address, port: info.port });
  });

  const close = () =>
    new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  if (options.handleSignals ?? true) {
    const stop = () => void close().then(() => process.exit(0));
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, stop);
    server.once("close", () => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, stop);
    });
  }
  return { listening, server, close };
}

function banner(registry: Registry, url: string, path: string): string {
  const kinds = registry.kinds.map((k) => `${kindLabel(k)} (${[...k.versions.keys()].join(", ")})`);
  return [
    `crdshift listening on ${url}`,
    `serving ${kinds.join("; ")}`,
    "",
    "Put this in each CRD's spec (the apiserver needs an https URL it can reach, e.g. your Workers or Lambda URL):",
    "  conversion:",
    "    strategy: Webhook",
    "    webhook:",
    '      conversionReviewVersions: ["v1", "v1beta1"]',
    "      clientConfig:",
    `        url: https://<your-host>${path}`,
  ].join("\n");
}
