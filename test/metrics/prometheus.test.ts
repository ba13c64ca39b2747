import { describe, expect, it } from "vitest";
import { createPrometheusMetrics } from "../../src/metrics/prometheus";

const review = { crd: "CronTab.example.com", from: "v1beta1", to: "v1", objects: 2 } as const;

/** The samples of a scrape, `name{labels}` to value, without HELP and TYPE lines. */
async function samples(scrape: () => Promise<{ text: string }>): Promise<Map<string, number>> {
  const { text } = await scrape();
  const lines = text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
  return new Map(
    lines.map((line) => [line.slice(0, line.lastIndexOf(" ")), Number(line.slice(line.lastIndexOf(" ") + 1))]),
  );
}

describe("the Prometheus sink", () => {
  it("counts reviews, objects, failures, rejections and codes, and their latency in seconds", async () => {
    const { metrics, scrape } = createPrometheusMetrics({ processMetrics: false });
    metrics.review({ ...review, result: "success", durationMs: 3 });
    metrics.review({ ...review, result: "success", durationMs: 40 });
    metrics.review({ ...review, result: "failure", cause: "converter-error", durationMs: 1 });
    metrics.rejected("not-found");
    metrics.rejected("invalid-json");
    const got = await samples(scrape);
    const labels = 'crd="CronTab.example.com",from_version="v1beta1",to_version="v1"';
    expect(got.get(`crdshift_conversion_webhook_duration_seconds_count{${labels},succeeded="true"}`)).toBe(2);
    expect(got.get(`crdshift_conversion_webhook_duration_seconds_sum{${labels},succeeded="true"}`)).toBeCloseTo(0.043);
    expect(got.get(`crdshift_conversion_webhook_duration_seconds_bucket{le="0.004",${labels},succeeded="true"}`)).toBe(
      1,
    );
    expect(got.get(`crdshift_conversion_webhook_duration_seconds_bucket{le="0.064",${labels},succeeded="true"}`)).toBe(
      2,
    );
    expect(got.get(`crdshift_conversion_webhook_duration_seconds_count{${labels},succeeded="false"}`)).toBe(1);
    expect(got.get(`crdshift_conversion_objects_converted_total{${labels}}`)).toBe(4);
    expect(got.get('crdshift_conversion_failures_total{crd="CronTab.example.com",cause="converter-error"}')).toBe(1);
    expect(got.get('crdshift_conversion_webhook_requests_total{code="200"}')).toBe(3);
    expect(got.get('crdshift_conversion_webhook_requests_total{code="404"}')).toBe(1);
    expect(got.get('crdshift_conversion_webhook_requests_total{code="400"}')).toBe(1);
    expect(got.get('crdshift_conversion_webhook_rejections_total{reason="invalid-json"}')).toBe(1);
  });

  it("reaches past the apiserver's 30 s in the apiserver's own buckets", async () => {
    const { metrics, scrape } = createPrometheusMetrics({ processMetrics: false });
    metrics.review({ ...review, result: "success", durationMs: 1 });
    const { text } = await scrape();
    const bounds = [...text.matchAll(/_bucket\{le="([^"]+)"/g)].map((match) => match[1]);
    expect(bounds).toEqual([...Array.from({ length: 16 }, (_, i) => String(0.001 * 2 ** i)), "+Inf"]);
    expect(Number(bounds.at(-2))).toBeGreaterThan(30);
  });

  it("counts shadowed reviews, the objects that differ and the candidate's failures, zeros included", async () => {
    const { metrics, scrape } = createPrometheusMetrics({ processMetrics: false });
    metrics.shadow({ crd: review.crd, from: "v1beta1", to: "v1", differences: 2, failed: false });
    metrics.shadow({ crd: review.crd, from: "v1beta1", to: "v1", differences: 0, failed: true });
    const got = await samples(scrape);
    const labels = 'crd="CronTab.example.com",from_version="v1beta1",to_version="v1"';
    expect(got.get(`crdshift_shadow_reviews_total{${labels}}`)).toBe(2);
    expect(got.get(`crdshift_shadow_differences_total{${labels}}`)).toBe(2);
    expect(got.get(`crdshift_shadow_failures_total{${labels}}`)).toBe(1);
  });

  it("keeps its own registry, with the process's metrics unless told not to", async () => {
    const one = createPrometheusMetrics();
    const other = createPrometheusMetrics({ processMetrics: false });
    one.metrics.rejected("not-found");
    expect((await one.scrape()).text).toMatch(/^process_cpu_seconds_total /m);
    expect((await other.scrape()).text).not.toMatch(/process_cpu|code="404"/);
    expect((await one.scrape()).contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});
