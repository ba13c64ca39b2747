import type { Logger } from "../log";
import { type Datum, MetricBatch } from "./batch";
import { type Metrics, rejectionPoint, reviewPoints, shadowPoints } from "./metrics";

export interface CloudWatchOptions {
  namespace: string;
  region: string;
  /** Another endpoint than the region's (a VPC endpoint; a recorder in tests). */
  endpoint?: string;
  /** Explicit keys (Worker secrets). Without them the SDK's default chain runs (Lambda's role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  log: Logger;
  now?: () => number;
  /** Least time between two PutMetricData calls from one instance: batches, and bounds the bill. */
  intervalMs?: number;
  /** A call slower than this is abandoned (its metrics dropped). */
  timeoutMs?: number;
  /**
   * How the SDK is loaded: only on the first flush, so an instance that never flushes never pays
   * for it. Each platform says how (see src/platform): the SDK is an optional peer dependency,
   * and a bundler that meets `import("@aws-sdk/client-cloudwatch")` here would put it, or a
   * dangling import, into every Worker.
   */
  loadSdk: () => Promise<unknown>;
}

type Send = (metricData: Datum[]) => Promise<unknown>;
type CloudWatchSdk = typeof import("@aws-sdk/client-cloudwatch");

/**
 * Metrics to CloudWatch with PutMetricData. Recording only adds to an in-memory batch; shipping
 * happens after the reply, through `pending()` (Workers hand it to `waitUntil`), at most one call
 * in flight and one per `intervalMs`. A failing or hanging CloudWatch costs metrics, never a
 * conversion: errors are swallowed, logged once per outage.
 */
export function createCloudWatchMetrics(options: CloudWatchOptions): Metrics {
  const { namespace, log, now = Date.now, intervalMs = 10_000, timeoutMs = 5_000 } = options;
  const batch = new MetricBatch();
  let lastCall = Number.NEGATIVE_INFINITY;
  let flushing: Promise<void> | undefined;
  let send: Promise<Send> | undefined;
  let outage: { dropped: number } | undefined;

  const client = () =>
    (send ??= (options.loadSdk as () => Promise<CloudWatchSdk>)().then((sdk) => {
      const cw = new sdk.CloudWatchClient({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        maxAttempts: 2,
      });
      return (MetricData: Datum[]) =>
        cw.send(new sdk.PutMetricDataCommand({ Namespace: namespace, MetricData }), {
          abortSignal: AbortSignal.timeout(timeoutMs),
        });
    }));

  async function ship(calls: Datum[][], overflow: number): Promise<void> {
    let dropped = overflow;
    let failure: unknown;
    for (const call of calls) {
      try {
        await (
          await client()
        )(call);
      } catch (error) {
        // A broken SDK load is retried next time rather than remembered.
        if (!(await send?.catch(() => undefined))) send = undefined;
        failure ??= error;
        dropped += call.reduce((sum, datum) => sum + datum.Counts.reduce((a, b) => a + b, 0), 0);
      }
    }
    if (failure !== undefined || dropped > 0) {
      if (!outage) {
        log({
          level: "warn",
          msg: "metrics dropped",
          sink: "cloudwatch",
          error: describe(failure ?? "buffer full"),
          dropped,
        });
        outage = { dropped: 0 };
      }
      outage.dropped += dropped;
    } else if (outage) {
      log({ level: "info", msg: "metrics delivered again", sink: "cloudwatch", droppedMeanwhile: outage.dropped });
      outage = undefined;
    }
  }

  async function drain(): Promise<void> {
    try {
      while (batch.size > 0) {
        const wait = lastCall + intervalMs - now();
        if (wait > 0) await sleep(wait);
        lastCall = now();
        const overflow = batch.dropped;
        batch.dropped = 0;
        await ship(batch.take(new Date(now())), overflow);
      }
    } finally {
      // Cleared in the same turn as the last size check: a point added later starts a new drain.
      flushing = undefined;
    }
  }

  return {
    review(measured) {
      for (const point of reviewPoints(measured)) batch.add(point);
    },
    rejected(reason) {
      batch.add(rejectionPoint(reason));
    },
    shadow(measured) {
      for (const point of shadowPoints(measured)) batch.add(point);
    },
    pending() {
      if (batch.size === 0) return flushing;
      flushing ??= drain();
      return flushing;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms) as { unref?: () => void };
    // On Node a waiting batch must not keep a finished process alive.
    timer.unref?.();
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
