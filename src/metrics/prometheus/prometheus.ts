import { createRequire } from "node:module";
import type * as PromClient from "prom-client";
import { REJECTION_STATUS } from "../../outcome";
import type { Metrics } from "../metrics";

/**
 * The measures the CloudWatch sink records, as Prometheus metrics named the way the Kubernetes
 * ecosystem names a webhook's (docs/metrics.md says why each name): the latency as the
 * apiserver's own conversion histogram, the requests by HTTP code and in flight as controller-runtime's.
 * Its own registry, not prom-client's global one: a host that has one keeps it to itself.
 */
export interface PrometheusMetrics {
  metrics: Metrics;
  /** A request the webhook's listener began to serve; call what it returns once it is answered. */
  requestStarted(): () => void;
  /** The exposition text of everything recorded, and its content type, for a scrape. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

/**
 * The apiserver's buckets for `apiserver_crd_conversion_webhook_duration_seconds`
 * (exponential from 1 ms, doubling), one more to reach past the apiserver's 30 s, so the two
 * histograms of one call compare bucket by bucket.
 */
const LATENCY_BUCKETS = Array.from({ length: 16 }, (_, i) => 0.001 * 2 ** i);
const CRD_FROM_TO = ["crd", "from_version", "to_version"] as const;

/**
 * prom-client, loaded when a sink is made rather than when crdshift/node is imported: it takes
 * tens of milliseconds to load, which a server without CRDSHIFT_METRICS_BIND_ADDRESS (most of
 * them) would pay at every start. It is CommonJS, so it loads synchronously.
 */
const promClient = (): typeof PromClient => createRequire(import.meta.url)("prom-client") as typeof PromClient;

export function createPrometheusMetrics(options: { processMetrics?: boolean } = {}): PrometheusMetrics {
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = promClient();
  const register = new Registry();
  const registers = [register];
  const latency = new Histogram({
    name: "crdshift_conversion_webhook_duration_seconds",
    help: "Time to answer one ConversionReview, from its arrival to its reply, by CRD, versions and success.",
    labelNames: [...CRD_FROM_TO, "succeeded"],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const requests = new Counter({
    name: "crdshift_conversion_webhook_requests_total",
    help: "Requests to the conversion webhook, by HTTP status code: 200 for every review answered, converted or failed.",
    labelNames: ["code"],
    registers,
  });
  const objects = new Counter({
    name: "crdshift_conversion_objects_converted_total",
    help: "Objects converted, in reviews that succeeded.",
    labelNames: CRD_FROM_TO,
    registers,
  });
  const failures = new Counter({
    name: "crdshift_conversion_failures_total",
    help: "Reviews answered with a Failure, by CRD and cause.",
    labelNames: ["crd", "cause"],
    registers,
  });
  const rejected = new Counter({
    name: "crdshift_conversion_webhook_rejections_total",
    help: "Requests refused before conversion, by reason.",
    labelNames: ["reason"],
    registers,
  });
  const inFlight = new Gauge({
    name: "crdshift_conversion_webhook_requests_in_flight",
    help: "Requests the webhook's listener is serving now.",
    registers,
  });
  const shadowed = new Counter({
    name: "crdshift_shadow_reviews_total",
    help: "Reviews a shadow candidate also converted and were compared.",
    labelNames: CRD_FROM_TO,
    registers,
  });
  const shadowDifferences = new Counter({
    name: "crdshift_shadow_differences_total",
    help: "Objects a shadow candidate converted otherwise than the live reply.",
    labelNames: CRD_FROM_TO,
    registers,
  });
  const shadowFailures = new Counter({
    name: "crdshift_shadow_failures_total",
    help: "Shadowed reviews the candidate failed where the live reply did not.",
    labelNames: CRD_FROM_TO,
    registers,
  });
  if (options.processMetrics ?? true) collectDefaultMetrics({ register });

  // One review's series, looked up once per combination: prom-client hashes a label object on
  // every call, and the served names keep the combinations few.
  type Series = { latency: ReturnType<typeof latency.labels>; objects: ReturnType<typeof objects.labels> };
  const reviewSeries = new Map<string, Series>();
  const ok = requests.labels("200");

  return {
    metrics: {
      review(measured) {
        const succeeded = measured.result === "success";
        const key = `${measured.crd}\u0000${measured.from}\u0000${measured.to}\u0000${succeeded}`;
        let series = reviewSeries.get(key);
        if (!series) {
          const labels = { crd: measured.crd, from_version: measured.from, to_version: measured.to };
          series = {
            latency: latency.labels({ ...labels, succeeded: String(succeeded) }),
            objects: objects.labels(labels),
          };
          reviewSeries.set(key, series);
        }
        series.latency.observe(measured.durationMs / 1000);
        ok.inc();
        if (succeeded) series.objects.inc(measured.objects);
        else failures.inc({ crd: measured.crd, cause: measured.cause ?? "unknown" });
      },
      rejected(reason) {
        rejected.inc({ reason });
        requests.inc({ code: String(REJECTION_STATUS[reason]) });
      },
      shadow(measured) {
        const labels = { crd: measured.crd, from_version: measured.from, to_version: measured.to };
        shadowed.inc(labels);
        shadowDifferences.inc(labels, measured.differences);
        shadowFailures.inc(labels, measured.failed ? 1 : 0);
      },
      // Scraped, not shipped: nothing to do after a reply.
      pending: () => undefined,
    },
    requestStarted() {
      inFlight.inc();
      return () => inFlight.dec();
    },
    scrape: async () => ({ contentType: register.contentType, text: await register.metrics() }),
  };
}
