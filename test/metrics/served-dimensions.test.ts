import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics";
import type { MeasuredReview } from "../../src/metrics/metrics";
import { registry } from "../../examples";

const outcome: MeasuredReview = {
  crd: "CronTab.example.com",
  from: "v1beta1",
  to: "v1",
  result: "failure",
  cause: "unknown-version",
  objects: 1,
  durationMs: 2,
};

/** The dimensions of the EMF line each outcome makes, through the sink the platforms build. */
function dimensions(...outcomes: MeasuredReview[]) {
  const lines: string[] = [];
  const metrics = createMetrics(
    { sink: "emf", namespace: "crdshift" },
    { log: () => {}, write: (line) => lines.push(line), registry },
  );
  for (const each of outcomes) metrics.review(each);
  return lines.map((line) => {
    const { CRD, From, To } = JSON.parse(line) as Record<string, string>;
    return { CRD, From, To };
  });
}

describe("metric dimensions take only the names the registry serves", () => {
  it("keep a served kind and its versions", () => {
    expect(dimensions(outcome)).toEqual([{ CRD: "CronTab.example.com", From: "v1beta1", To: "v1" }]);
  });

  it("count kinds and versions the registry does not serve as other, however many a caller invents", () => {
    const invented = Array.from({ length: 50 }, (_, i) => ({
      ...outcome,
      crd: `Thing${i}.evil.example`,
      to: `v${i}x`,
    }));
    const seen = new Set(dimensions(...invented).map((each) => JSON.stringify(each)));
    expect([...seen]).toEqual([JSON.stringify({ CRD: "other", From: "v1beta1", To: "other" })]);
    expect(dimensions({ ...outcome, from: "v9" })).toEqual([{ CRD: "CronTab.example.com", From: "other", To: "v1" }]);
  });

  it("keep mixed and none, the summary's own words", () => {
    expect(dimensions({ ...outcome, crd: "mixed", from: "mixed" }, { ...outcome, crd: "none", from: "none" })).toEqual([
      { CRD: "mixed", From: "mixed", To: "v1" },
      { CRD: "none", From: "none", To: "v1" },
    ]);
  });
});
