import type { MetricsConfig } from "../config";
import type { Logger } from "../log";
import { createCloudWatchMetrics } from "./cloudwatch";
import { createEmfMetrics } from "./emf";
import { noMetrics, type Metrics } from "./metrics";

export { createCloudWatchMetrics, type CloudWatchOptions } from "./cloudwatch";
export { createEmfMetrics, emfDocument } from "./emf";
export { METRICS, noMetrics, type Metrics, type MetricName, type RejectionReason, type ReviewOutcome } from "./metrics";

/** The configured sink. `write` is where EMF lines go: a bare stdout line, nothing before it. */
export function createMetrics(config: MetricsConfig, services: { log: Logger; write: (line: string) => void }): Metrics {
  switch (config.sink) {
    case "none":
      return noMetrics;
    case "emf":
      return createEmfMetrics({ namespace: config.namespace, write: services.write });
    case "cloudwatch":
      return createCloudWatchMetrics({ ...config, log: services.log });
  }
}
