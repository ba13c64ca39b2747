import type { Hono } from "hono";
import { type AppOptions, createApp } from "./app";
import { type Config, ConfigError, type PlatformDefaults, readConfig } from "./config";
import type { Logger } from "../log";
import { createMetrics, type Metrics } from "../metrics";
import type { Registry } from "../conversion";

/**
 * The start-up every platform shares: the typed configuration from the platform's environment,
 * the metrics sink it names, and the one Hono app. Each platform's factory (node.ts, workers.ts,
 * lambda.ts) only says where its environment, its log and its caller's address are.
 */
export interface PlatformStart extends Pick<
  AppOptions,
  "startedAt" | "platformDeadline" | "callerAddress" | "platformTrace" | "shadow"
> {
  /** `process.env` on Node and Lambda, the Worker's `env` bindings on Workers. */
  env: Readonly<Record<string, unknown>>;
  defaults?: PlatformDefaults;
  log: Logger;
  /** Where EMF lines go: each a bare line on stdout, with nothing before it. */
  writeMetricLine: (line: string) => void;
  /** How this platform loads the CloudWatch SDK, if it can (see metrics' MetricsServices). */
  loadCloudWatchSdk?: () => Promise<unknown>;
  /** A sink beside the one CRDSHIFT_METRICS names, held to the served names too (Node's Prometheus). */
  moreMetrics?: Metrics;
}

export type Started = { ok: true; app: Hono; config: Config } | { ok: false; error: ConfigError };

/** The app, or the configuration error, logged once, that keeps it from starting. */
export function startApp(registry: Registry, start: PlatformStart): Started {
  const { env, defaults, log, writeMetricLine, loadCloudWatchSdk, moreMetrics, ...app } = start;
  try {
    const config = readConfig(env, defaults);
    const metrics = createMetrics(config.metrics, {
      log,
      write: writeMetricLine,
      registry,
      ...(loadCloudWatchSdk ? { loadCloudWatchSdk } : {}),
      ...(moreMetrics ? { also: moreMetrics } : {}),
    });
    return { ok: true, config, app: createApp({ registry, config, log, metrics, ...app }) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log({ level: "error", msg: "configuration error", error: error.message });
    return { ok: false, error };
  }
}

/**
 * The body of every reply while the configuration is bad: a 500 that says where to look and
 * never repeats the value (it may be a token). `where` is the platform's name for the thing
 * whose logs hold the reason: "function", "Worker".
 */
export function misconfiguredBody(where: string): string {
  return JSON.stringify({ error: `crdshift is misconfigured; see the ${where}'s logs` });
}
