import { fileURLToPath } from "node:url";
import { App, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { CrdshiftWebhook, type CrdshiftWebhookProps } from "crdshift/aws-cdk";
import { beforeAll, describe, expect, it } from "vitest";

const SYNTH_TIMEOUT_MS = 240_000;
const bundleDir = fileURLToPath(new URL("../../fixtures/lambda-asset", import.meta.url));

function synth(props: Partial<CrdshiftWebhookProps> = {}): Template {
  const stack = new Stack(new App(), "Test");
  new CrdshiftWebhook(stack, "Webhook", { bundleDir, ...props });
  return Template.fromStack(stack);
}

interface Widget {
  type: string;
  properties: {
    title: string;
    metrics?: unknown[][];
    alarms?: unknown[];
    annotations?: { horizontal: { value: number }[] };
  };
}

/** The dashboard's body as JSON, each CloudFormation reference in it replaced by `REF`. */
function dashboardWidgets(template: Template): Widget[] {
  const dashboards = Object.values(template.findResources("AWS::CloudWatch::Dashboard"));
  expect(dashboards).toHaveLength(1);
  const body = dashboards[0]!.Properties.DashboardBody;
  const parts: unknown[] = body["Fn::Join"] ? body["Fn::Join"][1] : [body];
  return JSON.parse(parts.map((part) => (typeof part === "string" ? part : "REF")).join("")).widgets;
}

const expressions = (widget: Widget) =>
  (widget.properties.metrics ?? []).flatMap((line) =>
    line.flatMap((item) => (item && typeof item === "object" && "expression" in item ? [item.expression] : [])),
  );
const metricNames = (widget: Widget) => (widget.properties.metrics ?? []).map((line) => line[1]);

let widgets: Widget[];
beforeAll(() => {
  widgets = dashboardWidgets(synth());
}, SYNTH_TIMEOUT_MS);

describe("CrdshiftWebhook: the dashboard", () => {
  it("shows crdshift's metrics per CRD and version pair, found by SEARCH in its namespace", () => {
    const searches = widgets.flatMap(expressions);
    expect(searches).toEqual(
      expect.arrayContaining([
        `SEARCH('{"crdshift",CRD,From,To,Result} MetricName="ReviewLatency"', 'SampleCount', 60)`,
        `SEARCH('{"crdshift",CRD,From,To,Result} MetricName="ReviewLatency"', 'p99', 60)`,
        `SEARCH('{"crdshift",Cause} MetricName="ConversionFailures"', 'Sum', 60)`,
        `SEARCH('{"crdshift",CRD,From,To} MetricName="ShadowDifferences"', 'Sum', 60)`,
        `SEARCH('{"crdshift",CRD,From,To} MetricName="ShadowFailures"', 'Sum', 60)`,
      ]),
    );
    // Each series found is labelled by its dimensions, not all by the expression's text.
    const labels = widgets.flatMap((widget) =>
      (widget.properties.metrics ?? []).flatMap((line) =>
        line.flatMap((item) =>
          item && typeof item === "object" && "expression" in item ? [(item as { label?: string }).label] : [],
        ),
      ),
    );
    expect(labels).toContain("${PROP('Dim.CRD')} ${PROP('Dim.From')} ${PROP('Dim.To')} ${PROP('Dim.Result')}");
  });

  it("draws the latency p50 and p99 against the latency alarms' thresholds", () => {
    const latency = widgets.find((widget) => widget.properties.title.startsWith("Review latency p50"))!;
    expect(metricNames(latency)).toEqual(["ReviewLatency", "ReviewLatency"]);
    expect(latency.properties.annotations!.horizontal.map((line) => line.value)).toEqual([58, 15_000]);
  });

  it("shows the alias's Lambda and function URL metrics, and every alarm's state", () => {
    const names = widgets.flatMap(metricNames);
    for (const name of ["Invocations", "Errors", "Throttles", "UrlRequestCount", "Url4xxCount", "Url5xxCount"])
      expect(names).toContain(name);
    const status = widgets.find((widget) => widget.type === "alarm")!;
    expect(status.properties.alarms).toHaveLength(10);
  });

  it(
    "follows the namespace and the tuned thresholds, takes a name, and can be left out",
    () => {
      const tuned = synth({
        metricsNamespace: "team/crdshift",
        alarms: { slowReviews: { threshold: 120 }, reviewsNearTimeout: false },
        dashboardName: "crdshift-webhook",
      });
      tuned.hasResourceProperties("AWS::CloudWatch::Dashboard", { DashboardName: "crdshift-webhook" });
      const own = dashboardWidgets(tuned);
      expect(own.flatMap(expressions)).toContain(
        `SEARCH('{"team/crdshift",Cause} MetricName="ConversionFailures"', 'Sum', 60)`,
      );
      const latency = own.find((widget) => widget.properties.title.startsWith("Review latency p50"))!;
      expect(latency.properties.annotations!.horizontal.map((line) => line.value)).toEqual([120]);
      synth({ dashboard: false }).resourceCountIs("AWS::CloudWatch::Dashboard", 0);
    },
    SYNTH_TIMEOUT_MS,
  );
});
