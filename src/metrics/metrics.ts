import { clip } from "../json";
import type { FailureCause, RejectionReason } from "../outcome";

/**
 * What crdshift measures, named once for every sink. A review's outcome becomes a handful of
 * data points; sinks only decide how to ship them (an EMF log line, PutMetricData, nothing).
 */

/** One review as the metrics see it: no contents, only names, counts and the measured. */
export interface MeasuredReview {
  /** `Kind.group` of the objects, e.g. `CronTab.example.com`; `mixed` or `none` when not one. */
  crd: string;
  /** The objects' version (`v1beta1`); `mixed` when they differ, `none` for an empty review. */
  from: string;
  /** The desired version, e.g. `v1`. */
  to: string;
  result: "success" | "failure";
  /** Set on failure. */
  cause?: FailureCause;
  objects: number;
  durationMs: number;
}

/**
 * One review a shadow candidate also converted (src/shadow/), compared with the live reply.
 * Dimensions as MeasuredReview's.
 */
export interface MeasuredShadow {
  crd: string;
  from: string;
  to: string;
  /** Objects the candidate answered otherwise than the live reply (all of them, where only the live one failed). */
  differences: number;
  /** The candidate failed where the live reply did not: threw, ran out of time, or answered a Failure. */
  failed: boolean;
}

export type Unit = "Milliseconds" | "Count";

/** One value of one metric, with the dimension sets it is published under. */
export interface MetricPoint {
  name: MetricName;
  unit: Unit;
  value: number;
  dimensions: Readonly<Record<string, string>>;
  /**
   * The dimension sets (subsets of `dimensions`' keys) the value is counted under: one metric
   * per set in CloudWatch. `[]` is the overall figure.
   */
  sets: readonly (readonly string[])[];
}

export const METRICS = {
  ReviewLatency: { unit: "Milliseconds", help: "time to convert one review, from its body read to its reply" },
  ObjectsConverted: { unit: "Count", help: "objects converted (successful reviews only)" },
  ConversionFailures: { unit: "Count", help: "reviews answered with Failure" },
  ReviewsRejected: { unit: "Count", help: "requests refused before conversion (4xx)" },
  ShadowDifferences: {
    unit: "Count",
    help: "objects a shadow candidate converted otherwise than the live reply (SampleCount: reviews shadowed)",
  },
  ShadowFailures: { unit: "Count", help: "shadowed reviews the candidate failed where the live reply did not" },
} as const satisfies Record<string, { unit: Unit; help: string }>;

type MetricName = keyof typeof METRICS;

/** The sink the app talks to. Recording must be cheap and must never throw into a request. */
export interface Metrics {
  review(measured: MeasuredReview): void;
  rejected(reason: RejectionReason): void;
  /** A shadow comparison's result, after the reply. */
  shadow(measured: MeasuredShadow): void;
  /**
   * Work still to do after the reply (shipping a batch), or undefined. The app hands it to the
   * platform (`waitUntil` on Workers) so the reply never waits for it. Never rejects.
   */
  pending(): Promise<void> | undefined;
}

export const noMetrics: Metrics = {
  review() {},
  rejected() {},
  shadow() {},
  pending: () => undefined,
};

const CRD_FROM_TO = [["CRD", "From", "To"]] as const;

export function reviewPoints(measured: MeasuredReview): MetricPoint[] {
  const { result } = measured;
  const crd = dimensionValue(measured.crd);
  const from = dimensionValue(measured.from);
  const to = dimensionValue(measured.to);
  const points: MetricPoint[] = [
    {
      name: "ReviewLatency",
      unit: "Milliseconds",
      value: measured.durationMs,
      dimensions: { CRD: crd, From: from, To: to, Result: result },
      // Overall too: an alarm needs one series (it cannot SEARCH), and percentiles of several
      // series cannot be combined into one. Its sample count is the number of reviews.
      sets: [[], ["CRD", "From", "To", "Result"]],
    },
  ];
  if (result === "success") {
    points.push({
      name: "ObjectsConverted",
      unit: "Count",
      value: measured.objects,
      dimensions: { CRD: crd, From: from, To: to },
      sets: CRD_FROM_TO,
    });
  } else {
    points.push({
      name: "ConversionFailures",
      unit: "Count",
      value: 1,
      dimensions: { CRD: crd, Cause: measured.cause ?? "unknown" },
      // Overall, per CRD, and by cause: the three questions an operator asks first.
      sets: [[], ["CRD"], ["Cause"]],
    });
  }
  return points;
}

/** Both points for every shadowed review, zeros included: their sample count is the reviews compared. */
export function shadowPoints(measured: MeasuredShadow): MetricPoint[] {
  const dimensions = {
    CRD: dimensionValue(measured.crd),
    From: dimensionValue(measured.from),
    To: dimensionValue(measured.to),
  };
  // Also undimensioned: an alarm cannot SEARCH across every CRD's series (aws-cdk-alarms.ts).
  const sets = [[], ["CRD", "From", "To"]] as const;
  return [
    { name: "ShadowDifferences", unit: "Count", value: measured.differences, dimensions, sets },
    { name: "ShadowFailures", unit: "Count", value: measured.failed ? 1 : 0, dimensions, sets },
  ];
}

export function rejectionPoint(reason: RejectionReason): MetricPoint {
  return { name: "ReviewsRejected", unit: "Count", value: 1, dimensions: { Reason: reason }, sets: [["Reason"]] };
}

/**
 * A dimension value CloudWatch takes (1 to 1,024 ASCII characters; anything else fails the whole
 * PutMetricData call) from names a request gave: clipped, printable ASCII, never empty.
 */
function dimensionValue(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/gu, "?");
  return ascii.length === 0 ? "(empty)" : clip(ascii);
}
