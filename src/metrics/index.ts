export { type CloudWatchOptions, createCloudWatchMetrics } from "./cloudwatch";
export { createMetrics, type MetricsServices } from "./create-metrics";
export { createEmfMetrics, emfDocument } from "./emf";
export { METRICS, type MetricName, type Metrics, noMetrics, type ReviewOutcome, type ShadowOutcome } from "./metrics";
export type { MetricsConfig, MetricsSink } from "./metrics-config";
