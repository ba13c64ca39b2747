import { type Metrics, noMetrics } from "./metrics";

/** Every point to two sinks (the configured one, and Prometheus on Node); work after the reply from both. */
export function bothSinks(first: Metrics, second: Metrics): Metrics {
  if (first === noMetrics) return second;
  if (second === noMetrics) return first;
  return {
    review(measured) {
      first.review(measured);
      second.review(measured);
    },
    rejected(reason) {
      first.rejected(reason);
      second.rejected(reason);
    },
    shadow(measured) {
      first.shadow(measured);
      second.shadow(measured);
    },
    pending() {
      const a = first.pending();
      const b = second.pending();
      return a && b ? Promise.all([a, b]).then(() => {}) : (a ?? b);
    },
  };
}
