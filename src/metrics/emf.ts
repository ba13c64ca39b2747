import { type MetricPoint, type Metrics, rejectionPoint, reviewPoints, shadowPoints } from "./metrics";

/**
 * CloudWatch Embedded Metric Format: one JSON log line per review, from which CloudWatch Logs
 * extracts the metrics. No SDK, no API call, no IAM grant: the default on Lambda, where stdout
 * already goes to CloudWatch Logs. Format: CloudWatch_Embedded_Metric_Format_Specification.
 */
export function createEmfMetrics(options: {
  namespace: string;
  write: (line: string) => void;
  now?: () => number;
}): Metrics {
  const { namespace, write, now = Date.now } = options;
  const emit = (points: MetricPoint[]) => write(JSON.stringify(emfDocument(namespace, now(), points)));
  return {
    review: (measured) => emit(reviewPoints(measured)),
    rejected: (reason) => emit([rejectionPoint(reason)]),
    shadow: (measured) => emit(shadowPoints(measured)),
    pending: () => undefined,
  };
}

function emfDocument(namespace: string, timestamp: number, points: MetricPoint[]): Record<string, unknown> {
  // Dimension values and metric values are root members the directives point at.
  const root: Record<string, unknown> = {};
  const directives = points.map((point) => {
    Object.assign(root, point.dimensions);
    root[point.name] = point.value;
    return { Namespace: namespace, Dimensions: point.sets, Metrics: [{ Name: point.name, Unit: point.unit }] };
  });
  return { _aws: { Timestamp: timestamp, CloudWatchMetrics: directives }, ...root };
}
