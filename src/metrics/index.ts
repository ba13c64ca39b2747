export { createMetrics } from "./create-metrics";
export { createEmfMetrics } from "./emf";
export { type MeasuredShadow, type Metrics, noMetrics } from "./metrics";
export type { MetricsConfig, MetricsSink } from "./metrics-config";
