import { kindLabel } from "../protocol/api-version";
import type { Registry } from "../registry";
import type { Metrics, ReviewOutcome } from "./metrics";

/** The dimension value of every kind or version the registry does not serve. */
export const UNSERVED = "other";

/**
 * Metric dimensions only from names the registry serves. `CRD`, `From` and `To` come from the
 * request, and each new combination is a new CloudWatch metric, billed by the month: without a
 * token anyone who can reach the URL could mint them by the thousand. What the registry does not
 * serve is counted under `other` (the log line still names it); `mixed` and `none` stay.
 */
export function servedDimensions(metrics: Metrics, registry: Registry): Metrics {
  const versionsOf = new Map(registry.kinds.map((kind) => [kindLabel(kind), new Set(kind.versions.keys())]));
  const anyVersion = new Set(registry.kinds.flatMap((kind) => [...kind.versions.keys()]));
  const summaryWord = (value: string) => value === "mixed" || value === "none";
  return {
    review(outcome: ReviewOutcome) {
      const versions = versionsOf.get(outcome.crd);
      const crd = versions || summaryWord(outcome.crd) ? outcome.crd : UNSERVED;
      const served = versions ?? anyVersion;
      const version = (value: string) => (served.has(value) || summaryWord(value) ? value : UNSERVED);
      metrics.review({ ...outcome, crd, from: version(outcome.from), to: version(outcome.to) });
    },
    rejected: (reason) => metrics.rejected(reason),
    pending: () => metrics.pending(),
  };
}
