import { APISERVER_TIMEOUT_MS } from "../webhook-call";
import { type Finding, info, warning } from "./finding";

/** The apiserver logs a "Call conversion webhook" trace above 50 ms + 8 ms per object. */
export function traceThresholdMs(objects: number): number {
  return 50 + 8 * objects;
}

/**
 * Latency of one-object reviews against the apiserver's limits. The first call pays for a new
 * connection (and any cold start), as after every idle period in the cluster; the others ride
 * a kept-alive connection, as most of the apiserver's calls do.
 */
export function latencyFindings(latenciesMs: number[]): Finding[] {
  if (latenciesMs.length === 0) return [];
  const threshold = traceThresholdMs(1);
  const [first, ...rest] = latenciesMs as [number, ...number[]];
  const steady = rest.length > 0 ? rest : [first];
  const median = [...steady].sort((a, b) => a - b)[Math.floor((steady.length - 1) / 2)]!;
  const slowest = Math.max(...latenciesMs);
  const over = latenciesMs.filter((ms) => ms > threshold).length;
  const found: Finding[] = [
    info(
      "latency",
      `${latenciesMs.length} calls: first ${ms(first)} (new connection), median ${ms(median)}, slowest ${ms(slowest)}; ${over} over the apiserver's trace threshold of ${threshold} ms for one object, limit ${APISERVER_TIMEOUT_MS / 1000} s`,
    ),
  ];
  if (median > threshold) {
    found.push(
      warning(
        "latency-over-trace-threshold",
        `the median call took ${ms(median)}, over the apiserver's trace threshold of ${threshold} ms (50 ms + 8 ms per object): every read of a non-storage version waits this long per object, and the apiserver logs a slow-call trace`,
        "deploy the webhook closer to the cluster, or on a platform with less start-up and network time",
      ),
    );
  }
  if (slowest > APISERVER_TIMEOUT_MS / 2) {
    found.push(
      warning(
        "latency-near-timeout",
        `the slowest call took ${ms(slowest)}, over half the apiserver's ${APISERVER_TIMEOUT_MS / 1000} s limit: a slower one fails the read or watch that needed it`,
        "find what makes calls slow (cold starts, converters, the network) before the cluster does",
      ),
    );
  }
  return found;
}

function ms(value: number): string {
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
}
