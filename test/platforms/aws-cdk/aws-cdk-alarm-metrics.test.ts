import { fileURLToPath } from "node:url";
import { App, Stack } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { CrdshiftWebhook } from "crdshift/aws-cdk";
import { beforeAll, describe, expect, it } from "vitest";
import { METRICS, reviewPoints, shadowPoints } from "../../../src/metrics/metrics";

// The construct's alarms against the metrics crdshift emits: an alarm on a series nobody sends
// stays OK whatever happens, which is worse than no alarm.
const SYNTH_TIMEOUT_MS = 240_000;
const bundleDir = fileURLToPath(new URL("../../fixtures/lambda-asset", import.meta.url));

function synth(metrics?: "emf" | "none"): { template: Template; stack: Stack } {
  const stack = new Stack(new App(), "Test");
  new CrdshiftWebhook(stack, "Webhook", { bundleDir, ...(metrics ? { metrics } : {}) });
  return { template: Template.fromStack(stack), stack };
}

type Properties = Record<string, any>;
const alarms = (template: Template) =>
  Object.values(template.findResources("AWS::CloudWatch::Alarm")).map((alarm) => alarm.Properties as Properties);

let template: Template;
beforeAll(() => {
  template = synth().template;
}, SYNTH_TIMEOUT_MS);

describe("CrdshiftWebhook's alarms watch series that exist", () => {
  it("watches series crdshift emits: ReviewLatency and ConversionFailures carry an undimensioned set", () => {
    const names = alarms(template).flatMap((Properties) =>
      Properties.Namespace === "crdshift"
        ? [Properties.MetricName as string]
        : (Properties.Metrics ?? []).flatMap((m: any) => (m.MetricStat ? [m.MetricStat.Metric.MetricName] : [])),
    );
    const shadowMode = ["ShadowDifferences", "ShadowFailures"];
    // The default alarms watch both of crdshift's own series: a loop over no names checks nothing.
    expect(names).toEqual(expect.arrayContaining(["ReviewLatency", "ConversionFailures"]));
    for (const name of new Set(names)) expect([...Object.keys(METRICS), ...shadowMode]).toContain(name);
    const base = { crd: "CronTab.example.com", from: "v1beta1", to: "v1", objects: 1, durationMs: 3 } as const;
    const points = [
      ...reviewPoints({ ...base, result: "success" }),
      ...reviewPoints({ ...base, result: "failure", cause: "converter-error" }),
    ];
    for (const name of ["ReviewLatency", "ConversionFailures"]) {
      const overall = points.filter((point) => point.name === name && point.sets.some((set) => set.length === 0));
      expect(overall.length, name).toBeGreaterThan(0);
    }
  });

  // Shadow mode's points come from shadowPoints (src/metrics/metrics.ts): the shadow alarms
  // watch the undimensioned series, which must therefore exist, or they never fire.
  it("watches series shadow mode emits: ShadowDifferences and ShadowFailures overall", () => {
    const points = shadowPoints({ crd: "CronTab.example.com", from: "v1", to: "v2", differences: 2, failed: true });
    for (const name of ["ShadowDifferences", "ShadowFailures"]) {
      const overall = points.filter((point) => point.name === name && point.sets.some((set) => set.length === 0));
      expect(overall.length, `${name} needs an undimensioned set ([]) for its alarm`).toBeGreaterThan(0);
    }
  });

  it(
    "with metrics: none, watch only Lambda's and the URL's metrics, say so, and graph nothing of crdshift's",
    () => {
      const { template: bare, stack } = synth("none");
      const namespaces = alarms(bare).map((Properties) => Properties.Namespace);
      expect(namespaces).toEqual(["AWS/Lambda", "AWS/Lambda", "AWS/Lambda", "AWS/Lambda"]);
      Annotations.fromStack(stack).hasWarning("*", Match.stringLikeRegexp("no alarm watches failed reviews"));
      const body = JSON.stringify(Object.values(bare.findResources("AWS::CloudWatch::Dashboard"))[0]);
      expect(body).not.toContain("ReviewLatency");
      expect(body).toContain("Url5xxCount");
    },
    SYNTH_TIMEOUT_MS,
  );
});
