export { createMetrics } from "./create-metrics";
export { createEmfMetrics } from "./emf";
export { type Metrics, noMetrics, type ShadowOutcome } from "./metrics";
export type { MetricsConfig, MetricsSink } from "./metrics-config";
