import type { Registry } from "../conversion";
import type { Logger } from "../log";
import { bothSinks } from "./both-sinks";
import { createCloudWatchMetrics } from "./cloudwatch";
import { createEmfMetrics } from "./emf";
import { type Metrics, noMetrics } from "./metrics";
import type { MetricsConfig } from "./metrics-config";
import { servedDimensions } from "./served-dimensions";

/* The sink the configuration names, held to the kinds and versions served. */

export interface MetricsServices {
  log: Logger;
  /** Where EMF lines go: a bare stdout line, nothing before it. */
  write: (line: string) => void;
  /**
   * Loads the CloudWatch SDK for the `cloudwatch` sink: `() => import("@aws-sdk/client-cloudwatch")`.
   * Without it that sink logs, once per outage, that its metrics are dropped for want of the SDK.
   */
  loadCloudWatchSdk?: () => Promise<unknown>;
  /** The kinds and versions served: the only names metric dimensions take (see served-dimensions.ts). */
  registry?: Registry;
  /** A sink that takes every point beside the configured one (Prometheus on Node). */
  also?: Metrics;
}

const noSdk = () =>
  Promise.reject(
    new Error(
      'CRDSHIFT_METRICS=cloudwatch needs the CloudWatch SDK: pass loadCloudWatchSdk: () => import("@aws-sdk/client-cloudwatch")',
    ),
  );

/** The sink the configuration names. */
export function createMetrics(config: MetricsConfig, services: MetricsServices): Metrics {
  const sink = bothSinks(createSink(config, services), services.also ?? noMetrics);
  return services.registry && sink !== noMetrics ? servedDimensions(sink, services.registry) : sink;
}

function createSink(config: MetricsConfig, services: MetricsServices): Metrics {
  switch (config.sink) {
    case "none":
      return noMetrics;
    case "emf":
      return createEmfMetrics({ namespace: config.namespace, write: services.write });
    case "cloudwatch":
      return createCloudWatchMetrics({ ...config, log: services.log, loadSdk: services.loadCloudWatchSdk ?? noSdk });
  }
}
