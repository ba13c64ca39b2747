import type { Duration } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import type { Construct } from "constructs";

export interface DashboardInput {
  alias: lambda.IAlias;
  namespace: string;
  period: Duration;
  alarms: cloudwatch.IAlarm[];
  /** Whether the function sends crdshift's metrics (`metrics` is not `none`): their graphs, if so. */
  ownMetrics: boolean;
  /** The latency alarms' thresholds, drawn on the latency graph; absent for an alarm turned off. */
  slowMs?: number;
  nearTimeoutMs?: number;
  dashboardName?: string;
}

/**
 * One dashboard for the webhook: crdshift's metrics per CRD and version pair (SEARCH finds
 * whichever series exist, which a dashboard may do and an alarm may not), the latency against the
 * apiserver's thresholds, the alias's Lambda and function URL metrics, and the alarms' states.
 */
export function createDashboard(scope: Construct, input: DashboardInput): cloudwatch.Dashboard {
  const { alias, namespace, period } = input;
  const seconds = period.toSeconds();
  // Quoted: a namespace may hold a slash or a space.
  // Each series the search finds is labelled by its own dimension values (a dynamic label).
  const search = (dimensions: string[], metricName: string, statistic: string) =>
    new cloudwatch.MathExpression({
      expression: `SEARCH('{"${namespace}",${dimensions.join(",")}} MetricName="${metricName}"', '${statistic}', ${seconds})`,
      usingMetrics: {},
      label: dimensions.map((name) => `\${PROP('Dim.${name}')}`).join(" "),
      period,
    });
  const own = (metricName: string, statistic: string, label: string) =>
    new cloudwatch.Metric({ namespace, metricName, statistic, period, label });
  const onAlias = (metricName: string, statistic: string) =>
    alias.metric(metricName, { statistic, period, label: metricName });
  const graph = (title: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
    new cloudwatch.GraphWidget({ title, left, width: 12, height: 6, ...extra });

  const dashboard = new cloudwatch.Dashboard(
    scope,
    "Dashboard",
    input.dashboardName ? { dashboardName: input.dashboardName } : {},
  );
  const crdshiftRows = [
    [
      graph("Reviews by CRD, from, to and result", [
        search(["CRD", "From", "To", "Result"], "ReviewLatency", "SampleCount"),
      ]),
      graph("Failed reviews: overall and by cause", [
        own("ConversionFailures", "Sum", "all failures"),
        search(["Cause"], "ConversionFailures", "Sum"),
      ]),
    ],
    [
      graph("Review latency p50, p99 (ms)", [own("ReviewLatency", "p50", "p50"), own("ReviewLatency", "p99", "p99")], {
        leftAnnotations: [
          ...(input.slowMs === undefined
            ? []
            : [{ value: input.slowMs, label: "slow reviews (apiserver trace: 50 ms + 8 ms per object)" }]),
          ...(input.nearTimeoutMs === undefined
            ? []
            : [{ value: input.nearTimeoutMs, label: "near the apiserver's 30 s timeout" }]),
        ],
        leftYAxis: { min: 0 },
      }),
      graph("Review latency p99 by CRD, from, to (ms)", [
        search(["CRD", "From", "To", "Result"], "ReviewLatency", "p99"),
      ]),
    ],
  ];
  const lambdaRow = [
    graph("Lambda on the alias", [
      onAlias("Invocations", "Sum"),
      onAlias("Errors", "Sum"),
      onAlias("Throttles", "Sum"),
    ]),
    graph("Function URL on the alias", [
      onAlias("UrlRequestCount", "Sum"),
      onAlias("Url4xxCount", "Sum"),
      onAlias("Url5xxCount", "Sum"),
    ]),
  ];
  const shadowRow = [
    graph("Shadow differences by CRD, from, to", [search(["CRD", "From", "To"], "ShadowDifferences", "Sum")]),
    graph("Shadow failures by CRD, from, to", [search(["CRD", "From", "To"], "ShadowFailures", "Sum")]),
  ];
  // Without crdshift's metrics (`metrics: "none"`) their graphs would stay empty: left out.
  const rows: cloudwatch.IWidget[][] = input.ownMetrics ? [...crdshiftRows, lambdaRow, shadowRow] : [lambdaRow];
  if (input.alarms.length > 0)
    rows.push([new cloudwatch.AlarmStatusWidget({ title: "Alarms", alarms: input.alarms, width: 24, height: 4 })]);
  for (const row of rows) dashboard.addWidgets(...row);
  return dashboard;
}
