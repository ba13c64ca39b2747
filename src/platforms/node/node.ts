import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerType } from "@hono/node-server";
import { createJsonLogger } from "../../log";
import { kindLabel } from "../../kube";
import type { Registry } from "../../conversion";
import { importCloudWatchSdk } from "../../metrics/cloudwatch-sdk";
import { createPrometheusMetrics } from "../../metrics/prometheus";
import { createMetricsListener, listenForMetrics, readMetricsAddress } from "./metrics-listener";
import { createNodeServer, nodeCallerAddress } from "./node-server";
import { type ConfigError, startApp } from "../../server";
import { heapBoundCap, heapLimitWarning, heapSizeLimit } from "./heap-limit";
import { listenAt } from "./listen-at";
import { readWebhookAddress } from "./webhook-address";

export interface ServeOptions {
  /**
   * Port to listen on; 0 picks a free one. Default: `PORT` from the environment, else 8787.
   * Not a port number: a `ConfigError` at once; one that cannot be bound: `listening` rejects with one.
   */
  port?: number;
  /** Address to bind. Default: `HOST` from the environment, else 127.0.0.1 (loopback only). */
  hostname?: string;
  /**
   * Where `CRDSHIFT_*`, `PORT` and `HOST` are read from. Default: `process.env`.
   * `CRDSHIFT_METRICS_BIND_ADDRESS` (`host:port`) serves Prometheus metrics at `/metrics` there.
   */
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
  /**
   * Resolves once the server listens, with the webhook's URL (its path without the token), and
   * the metrics' URL when CRDSHIFT_METRICS_BIND_ADDRESS is set.
   */
  listening: Promise<Listening>;
  /** The underlying `node:http` server. */
  server: ServerType;
  /** Stops accepting connections; resolves when the open ones are done. */
  close(): Promise<void>;
}

export interface Listening {
  url: string;
  address: string;
  port: number;
  /** `http://host:port/metrics`, when Prometheus metrics are on. */
  metricsUrl?: string;
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
  // Straight to the streams: console.log's formatting costs more than the line is worth here.
  const log = createJsonLogger((line, record) =>
    (record.level === "error" ? process.stderr : process.stdout).write(`${line}\n`),
  );
  const writeMetricLine = (line: string) => process.stdout.write(`${line}\n`);
  let address, metricsAddress;
  try {
    address = readWebhookAddress(options, env);
    metricsAddress = readMetricsAddress(env.CRDSHIFT_METRICS_BIND_ADDRESS);
  } catch (error) {
    log({ level: "error", msg: "configuration error", error: (error as Error).message });
    throw error;
  }
  const prometheus = metricsAddress ? createPrometheusMetrics() : undefined;
  const heapLimit = heapSizeLimit();
  const started = startApp(registry, {
    env,
    defaults: { maxBytesInFlight: heapBoundCap(heapLimit) },
    log,
    writeMetricLine,
    loadCloudWatchSdk: importCloudWatchSdk,
    startedAt,
    callerAddress: nodeCallerAddress,
    ...(prometheus ? { moreMetrics: prometheus.metrics } : {}),
    ...(options.shadow ? { shadow: options.shadow } : {}),
  });
  if (!started.ok) throw started.error;
  const heapWarning = heapLimitWarning(started.config.maxBytesInFlight, heapLimit);
  if (heapWarning) log({ level: "warn", msg: "heap limit below the in-flight cap", why: heapWarning });
  const path = started.config.tokens.length > 0 ? "/convert/$CRDSHIFT_TOKEN" : "/convert";

  const server = createNodeServer(started.app, address.hostname);
  if (prometheus) {
    server.on("request", (_request, response: ServerResponse) => response.once("close", prometheus.requestStarted()));
  }
  const metricsServer = prometheus ? createMetricsListener(prometheus) : undefined;
  // Either address refused: said once in the log, the process to exit 1 once the other is closed.
  const refusedClosing = (other: Server | undefined) => (why: ConfigError) => {
    log({ level: "error", msg: "configuration error", error: why.message });
    if (options.handleSignals ?? true) process.exitCode = 1;
    if (!other) return;
    if (other.listening) other.close();
    else other.once("listening", () => other.close());
  };
  const webhookListening = listenAt(
    server,
    address.port,
    address.hostname,
    address.setting,
    refusedClosing(metricsServer),
  ).then((info): Listening => {
    const url = `http://${hostPort(info)}${path}`;
    if (options.banner ?? true) console.log(banner(registry, url, path));
    return { url, address: info.address, port: info.port };
  });
  const closeOne = (one: { close(done: (error?: Error) => void): unknown }) =>
    new Promise<void>((resolve, reject) =>
      // Not running: never listened (its address was refused), or closed already.
      one.close((error) =>
        error && (error as NodeJS.ErrnoException).code !== "ERR_SERVER_NOT_RUNNING" ? reject(error) : resolve(),
      ),
    );
  const metricsListening =
    metricsServer && metricsAddress
      ? listenForMetrics(metricsServer, metricsAddress, env.CRDSHIFT_METRICS_BIND_ADDRESS, refusedClosing(server)).then(
          (info) => `http://${hostPort(info)}/metrics`,
        )
      : undefined;
  const listening = metricsListening
    ? Promise.all([webhookListening, metricsListening]).then(([webhook, metricsUrl]) => ({ ...webhook, metricsUrl }))
    : webhookListening;
  // Said in the log already: a caller that does not await `listening` gets no unhandled rejection.
  listening.catch(() => {});
  const close = () =>
    Promise.all([closeOne(server), ...(metricsServer ? [closeOne(metricsServer)] : [])]).then(() => {});
  if (options.handleSignals ?? true) {
    // An address refused before the signal has set exit code 1: keep it.
    const stop = () => void close().then(() => process.exit(process.exitCode ?? 0));
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, stop);
    server.once("close", () => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, stop);
    });
  }
  return { listening, server, close };
}

function hostPort(info: AddressInfo): string {
  return `${info.family === "IPv6" ? `[${info.address}]` : info.address}:${info.port}`;
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
