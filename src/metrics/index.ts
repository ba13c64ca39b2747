export { type CloudWatchOptions, createCloudWatchMetrics } from "./cloudwatch";
export { importCloudWatchSdk } from "./cloudwatch-sdk";
export { createMetrics, type MetricsServices } from "./create-metrics";
export { createEmfMetrics, emfDocument } from "./emf";
export { METRICS, type MetricName, type Metrics, noMetrics, type MeasuredReview, type MeasuredShadow } from "./metrics";
export type { MetricsConfig, MetricsSink } from "./metrics-config";
