/** Where metrics go, as the configuration names it (CRDSHIFT_METRICS and its settings). */

export type MetricsSink = "none" | "emf" | "cloudwatch";

export type MetricsConfig =
  | { sink: "none" }
  | { sink: "emf"; namespace: string }
  | {
      sink: "cloudwatch";
      namespace: string;
      region: string;
      endpoint?: string;
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
      intervalMs: number;
      timeoutMs: number;
    };
