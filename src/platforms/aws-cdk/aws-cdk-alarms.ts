import { Duration } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as sns from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";

/** How one alarm is tuned; `false` in its place turns it off. */
export interface AlarmTuning {
  /** The value at or above which the alarm fires (a count, a percentage or milliseconds). */
  threshold?: number;
  /** Periods looked at. */
  evaluationPeriods?: number;
  /** Of those, how many must breach. Default: all of them (3 of 5 for `slowReviews`), at most `evaluationPeriods`. */
  datapointsToAlarm?: number;
  /** Whether a breach during a CodeDeploy deployment rolls it back. */
  rollback?: boolean;
}

/**
 * The construct's alarms, each on by default. Every one treats missing data as not breaching:
 * a quiet cluster sends no reviews, and crdshift's counts have no data point when nothing failed.
 */
export interface CrdshiftAlarmsOptions {
  /** Reviews answered with `Failure` (crdshift's `ConversionFailures`): default 1 a period; rolls back. */
  failedReviews?: AlarmTuning | false;
  /** `ConversionFailures` as a percentage of reviews: default 1 %; rolls back. */
  failedReviewRate?: AlarmTuning | false;
  /**
   * p99 of `ReviewLatency` against the apiserver's trace threshold (50 ms + 8 ms per object):
   * default 58 ms, a one-object review's, in 3 of 5 periods; does not roll back.
   */
  slowReviews?: AlarmTuning | false;
  /**
   * p99 of `ReviewLatency` against the apiserver's fixed 30 s timeout: default 15,000 ms (half of
   * it, leaving the rest to the network, the function URL and a cold start); rolls back.
   */
  reviewsNearTimeout?: AlarmTuning | false;
  /** Lambda `Errors` on the alias: default 1; rolls back. */
  lambdaErrors?: AlarmTuning | false;
  /** Lambda `Throttles` on the alias: default 1; does not roll back (capacity, not the release). */
  lambdaThrottles?: AlarmTuning | false;
  /** The function URL's `Url4xxCount`: requests refused (token, caller network, size): default 1; rolls back. */
  url4xx?: AlarmTuning | false;
  /** The function URL's `Url5xxCount`: function errors and timeouts: default 1; rolls back. */
  url5xx?: AlarmTuning | false;
  /** crdshift's `ShadowDifferences` (shadow mode): default 1; does not roll back. */
  shadowDifferences?: AlarmTuning | false;
  /** crdshift's `ShadowFailures` (shadow mode): default 1; does not roll back. */
  shadowFailures?: AlarmTuning | false;
  /** The period of every alarm. Default: one minute, the resolution of crdshift's metrics. */
  period?: Duration;
}

export type CrdshiftAlarmName = Exclude<keyof CrdshiftAlarmsOptions, "period">;

interface AlarmDefinition {
  metric: cloudwatch.IMetric;
  threshold: number;
  evaluationPeriods: number;
  datapointsToAlarm?: number;
  rollback: boolean;
  description: string;
}

/** Alarms on crdshift's own metrics, which `metrics: "none"` leaves without data. */
const OWN_METRIC_ALARMS: readonly CrdshiftAlarmName[] = [
  "failedReviews",
  "failedReviewRate",
  "slowReviews",
  "reviewsNearTimeout",
  "shadowDifferences",
  "shadowFailures",
];

/** The apiserver logs a trace for a call over 50 ms + 8 ms per object; a read is one object. */
const TRACE_THRESHOLD_ONE_OBJECT_MS = 58;
const NEAR_TIMEOUT_MS = 15_000;

/**
 * crdshift's own metrics, each in its undimensioned series: an alarm watches one series and
 * cannot SEARCH, and the overall series is what a bad release moves. The dashboard shows the
 * per-CRD series.
 */
function definitions(alias: lambda.IAlias, namespace: string, period: Duration) {
  const own = (metricName: string, statistic: string) =>
    new cloudwatch.Metric({ namespace, metricName, statistic, period });
  const onAlias = (metricName: string) => alias.metric(metricName, { statistic: "Sum", period });
  const failures = own("ConversionFailures", "Sum");
  const reviews = own("ReviewLatency", "SampleCount");
  const p99 = own("ReviewLatency", "p99");
  const count = (metric: cloudwatch.IMetric, rollback: boolean, description: string): AlarmDefinition => ({
    metric,
    threshold: 1,
    evaluationPeriods: 1,
    rollback,
    description,
  });
  const all: Record<CrdshiftAlarmName, AlarmDefinition> = {
    failedReviews: count(
      failures,
      true,
      "crdshift answered reviews with Failure: reads of those custom resources fail. The log lines with result failure name the cause.",
    ),
    failedReviewRate: {
      metric: new cloudwatch.MathExpression({
        expression: "100 * FILL(failures, 0) / reviews",
        usingMetrics: { failures, reviews },
        label: "failed reviews (%)",
        period,
      }),
      threshold: 1,
      evaluationPeriods: 1,
      rollback: true,
      description: "The share of reviews crdshift answered with Failure, in percent.",
    },
    slowReviews: {
      metric: p99,
      threshold: TRACE_THRESHOLD_ONE_OBJECT_MS,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      rollback: false,
      description:
        "p99 review latency inside crdshift is over the apiserver's trace threshold (50 ms + 8 ms per object): the apiserver logs slow conversion webhook calls.",
    },
    reviewsNearTimeout: {
      metric: p99,
      threshold: NEAR_TIMEOUT_MS,
      evaluationPeriods: 1,
      rollback: true,
      description:
        "p99 review latency inside crdshift nears the apiserver's fixed 30 s timeout, past which reads fail.",
    },
    lambdaErrors: count(onAlias("Errors"), true, "Invocations of the webhook's alias ended in a Lambda error."),
    lambdaThrottles: count(
      onAlias("Throttles"),
      false,
      "Invocations of the webhook's alias were throttled: those calls of the apiserver fail.",
    ),
    url4xx: count(
      onAlias("Url4xxCount"),
      true,
      "The function URL refused requests (wrong token, caller network, too large): if they are the apiserver's, its reads fail.",
    ),
    url5xx: count(
      onAlias("Url5xxCount"),
      true,
      "The function URL answered 5xx (function errors, timeouts): the apiserver's reads fail.",
    ),
    shadowDifferences: count(
      own("ShadowDifferences", "Sum"),
      false,
      "Shadow mode: the candidate converter's output differs from the live one's.",
    ),
    shadowFailures: count(
      own("ShadowFailures", "Sum"),
      false,
      "Shadow mode: the candidate converter failed where the live one answered.",
    ),
  };
  return all;
}

export interface CrdshiftAlarms {
  /** Every alarm made, by name. */
  all: Partial<Record<CrdshiftAlarmName, cloudwatch.Alarm>>;
  /** Those a deployment rolls back on. */
  rollback: cloudwatch.Alarm[];
}

/**
 * The alarms `options` leaves on, tuned as it says, under a construct of their own. Without
 * `ownMetrics` (the function sends none) no alarm watches crdshift's metrics: with no data they
 * would stay OK whatever happened.
 */
export function createAlarms(
  scope: Construct,
  alias: lambda.IAlias,
  namespace: string,
  options: CrdshiftAlarmsOptions,
  ownMetrics: boolean,
): CrdshiftAlarms {
  const group = new Construct(scope, "Alarms");
  const made: CrdshiftAlarms = { all: {}, rollback: [] };
  const defined = definitions(alias, namespace, options.period ?? Duration.minutes(1));
  for (const name of Object.keys(defined) as CrdshiftAlarmName[]) {
    const tuning = options[name];
    if (tuning === false || (!ownMetrics && OWN_METRIC_ALARMS.includes(name))) continue;
    const definition = defined[name];
    const evaluationPeriods = tuning?.evaluationPeriods ?? definition.evaluationPeriods;
    const datapointsToAlarm =
      tuning?.datapointsToAlarm ?? Math.min(definition.datapointsToAlarm ?? evaluationPeriods, evaluationPeriods);
    // CloudFormation would refuse it only at deploy time.
    if (datapointsToAlarm > evaluationPeriods)
      throw new Error(
        `alarms.${name}: datapointsToAlarm (${datapointsToAlarm}) is more than evaluationPeriods (${evaluationPeriods})`,
      );
    const alarm = new cloudwatch.Alarm(group, name[0]!.toUpperCase() + name.slice(1), {
      metric: definition.metric,
      threshold: tuning?.threshold ?? definition.threshold,
      evaluationPeriods,
      datapointsToAlarm,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: definition.description,
    });
    made.all[name] = alarm;
    if (tuning?.rollback ?? definition.rollback) made.rollback.push(alarm);
  }
  return made;
}

/** The thresholds of the latency alarms that are on, as tuned, for the dashboard to draw. */
export function latencyThresholds(options: CrdshiftAlarmsOptions | false): { slowMs?: number; nearTimeoutMs?: number } {
  if (options === false) return {};
  const tuned = (tuning: AlarmTuning | false | undefined, otherwise: number) =>
    tuning === false ? {} : { value: tuning?.threshold ?? otherwise };
  const slow = tuned(options.slowReviews, TRACE_THRESHOLD_ONE_OBJECT_MS);
  const nearTimeout = tuned(options.reviewsNearTimeout, NEAR_TIMEOUT_MS);
  return {
    ...("value" in slow ? { slowMs: slow.value } : {}),
    ...("value" in nearTimeout ? { nearTimeoutMs: nearTimeout.value } : {}),
  };
}

/** Every alarm tells `topic` (a new one for `true`) when it fires and when it is OK again. */
export function notify(scope: Construct, alarms: CrdshiftAlarms, topic: sns.ITopic | boolean): sns.ITopic | undefined {
  if (topic === false) return undefined;
  const target =
    topic === true ? new sns.Topic(scope, "AlarmTopic", { displayName: "crdshift webhook alarms" }) : topic;
  const action = new actions.SnsAction(target);
  for (const alarm of Object.values(alarms.all)) {
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
  return target;
}
