import { describe, expect, it } from "vitest";
import type { LogRecord } from "../../src/log";
import type { MeasuredShadow } from "../../src/metrics";
import { noMetrics } from "../../src/metrics/metrics";
import { reportShadow } from "../../src/shadow/shadow-report";

const subject = { uid: "r", crd: "CronTab.example.com", from: "v1beta1", to: "v1", objects: 8 };

function report(result: Parameters<typeof reportShadow>[3]) {
  const logs: LogRecord[] = [];
  const shadows: MeasuredShadow[] = [];
  reportShadow((record) => logs.push(record), { ...noMetrics, shadow: (m) => shadows.push(m) }, subject, result);
  return { logs, shadows };
}

describe("reportShadow", () => {
  it("says when a comparison was cut short, and counts what it found before", () => {
    const same = report({ outcome: "same", unfinished: { compared: 3 } });
    expect(same.shadows).toEqual([expect.objectContaining({ differences: 0, failed: false })]);
    expect(same.logs).toEqual([
      expect.objectContaining({ level: "warn", msg: "shadow comparison cut short", compared: 3, objects: 8 }),
    ]);

    const different = report({
      outcome: "different",
      differing: 2,
      objects: [
        { index: 0, uid: "a", paths: ["port"], morePaths: false },
        { index: 4, uid: undefined, paths: ["items[0]"], morePaths: true },
      ],
      unfinished: { compared: 5 },
    });
    expect(different.shadows).toEqual([expect.objectContaining({ differences: 2, failed: false })]);
    expect(different.logs).toEqual([
      expect.objectContaining({ msg: "shadow difference", object: 0, objectUid: "a", paths: ["port"], differing: 2 }),
      expect.objectContaining({ msg: "shadow difference", object: 4, paths: ["items[0]"], morePaths: true }),
      expect.objectContaining({ msg: "shadow comparison cut short", compared: 5, objects: 8 }),
    ]);
    expect(different.logs[0]).not.toHaveProperty("morePaths");
  });

  it("says nothing of a comparison that finished", () => {
    expect(report({ outcome: "same" }).logs).toEqual([]);
  });
});
