import { describe, expect, it } from "vitest";
import { LIMITS, MetricBatch } from "../../src/metrics/batch";
import { createEmfMetrics } from "../../src/metrics/emf";
import { type MeasuredReview, reviewPoints } from "../../src/metrics/metrics";
import { emfProblems } from "./emf-spec";

const success: MeasuredReview = {
  crd: "CronTab.example.com",
  from: "v1beta1",
  to: "v1",
  result: "success",
  objects: 2,
  durationMs: 4,
};
const failure: MeasuredReview = { ...success, result: "failure", cause: "converter-error" };

function emfLines(outcomes: MeasuredReview[]) {
  const lines: string[] = [];
  const metrics = createEmfMetrics({ namespace: "crdshift", write: (line) => lines.push(line) });
  for (const outcome of outcomes) metrics.review(outcome);
  metrics.rejected("invalid-json");
  return lines;
}

describe("EMF lines", () => {
  it("follow the specification's structure, one line per review and per rejection", () => {
    const lines = emfLines([success, failure]);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(emfProblems(line)).toEqual([]);
  });

  it("carry latency overall and per CRD, from, to, result; objects per CRD, from, to; failures overall, per CRD and by cause", () => {
    const [ok, failed, rejected] = emfLines([success, failure]).map((line) => JSON.parse(line));
    expect(ok).toMatchObject({
      CRD: "CronTab.example.com",
      From: "v1beta1",
      To: "v1",
      Result: "success",
      ReviewLatency: 4,
      ObjectsConverted: 2,
    });
    expect(ok._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: "crdshift",
        Dimensions: [[], ["CRD", "From", "To", "Result"]],
        Metrics: [{ Name: "ReviewLatency", Unit: "Milliseconds" }],
      },
      {
        Namespace: "crdshift",
        Dimensions: [["CRD", "From", "To"]],
        Metrics: [{ Name: "ObjectsConverted", Unit: "Count" }],
      },
    ]);
    expect(failed).toMatchObject({ Result: "failure", Cause: "converter-error", ConversionFailures: 1 });
    expect(failed).not.toHaveProperty("ObjectsConverted");
    expect(failed._aws.CloudWatchMetrics[1].Dimensions).toEqual([[], ["CRD"], ["Cause"]]);
    expect(rejected).toMatchObject({ Reason: "invalid-json", ReviewsRejected: 1 });
  });

  it("carry shadow differences and failures overall and per CRD, from, to, zeros included, in a valid line", () => {
    const lines: string[] = [];
    const metrics = createEmfMetrics({ namespace: "crdshift", write: (line) => lines.push(line) });
    metrics.shadow({ crd: "CronTab.example.com", from: "v1beta1", to: "v1", differences: 3, failed: false });
    expect(emfProblems(lines[0]!)).toEqual([]);
    const doc = JSON.parse(lines[0]!);
    expect(doc).toMatchObject({ CRD: "CronTab.example.com", From: "v1beta1", To: "v1" });
    expect(doc).toMatchObject({ ShadowDifferences: 3, ShadowFailures: 0 });
    expect(doc._aws.CloudWatchMetrics.map((d: { Dimensions: unknown }) => d.Dimensions)).toEqual([
      [[], ["CRD", "From", "To"]],
      [[], ["CRD", "From", "To"]],
    ]);
  });

  it("are caught by the checker when malformed (the checker can fail)", () => {
    expect(emfProblems('INFO {"_aws":{}}')).not.toEqual([]);
    const doc = JSON.parse(emfLines([success])[0]!);
    delete doc.CRD;
    expect(emfProblems(JSON.stringify(doc))).toEqual([
      "CloudWatchMetrics[0]: dimension CRD is not a string member of the root",
      "CloudWatchMetrics[1]: dimension CRD is not a string member of the root",
    ]);
  });
});

describe("PutMetricData batches", () => {
  const at = new Date(0);

  it("send equal values once with a count", () => {
    const batch = new MetricBatch();
    for (let i = 0; i < 40; i++) for (const point of reviewPoints({ ...success, durationMs: i % 2 })) batch.add(point);
    const [call] = batch.take(at);
    const latency = call!.find((d) => d.MetricName === "ReviewLatency")!;
    expect(latency).toMatchObject({ Values: [0, 1], Counts: [20, 20], Unit: "Milliseconds" });
    expect(call!.find((d) => d.MetricName === "ObjectsConverted")).toMatchObject({ Values: [2], Counts: [40] });
  });

  it("hold at most 150 values per datum and 1,000 datums per call", () => {
    const batch = new MetricBatch();
    for (let i = 0; i < 400; i++) for (const point of reviewPoints({ ...success, durationMs: i })) batch.add(point);
    const latency = batch
      .take(at)
      .flat()
      .filter((d) => d.MetricName === "ReviewLatency");
    // The overall series and the CRD's, each in three datums.
    expect(latency.map((d) => d.Values.length)).toEqual([150, 150, 100, 150, 150, 100]);

    for (let i = 0; i < 1500; i++)
      for (const point of reviewPoints({ ...success, crd: `K${i}.example.com` })) batch.add(point);
    // 1,500 CRDs x (latency + objects) = 3,000 series, and the overall latency.
    expect(batch.take(at).map((call) => call.length)).toEqual([
      LIMITS.datumsPerCall,
      LIMITS.datumsPerCall,
      LIMITS.datumsPerCall,
      1,
    ]);
  });

  it("stay bounded while nothing is shipped, counting what they drop", () => {
    const batch = new MetricBatch(100);
    for (let i = 0; i < 1000; i++) for (const point of reviewPoints({ ...success, durationMs: i })) batch.add(point);
    expect(batch.size).toBe(100);
    expect(batch.dropped).toBeGreaterThan(0);
  });
});
