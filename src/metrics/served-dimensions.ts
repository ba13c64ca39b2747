import { kindLabel } from "../kube";
import type { Registry } from "../conversion";
import type { Metrics, MeasuredReview, MeasuredShadow } from "./metrics";

/** The dimension value of every kind or version the registry does not serve. */
const UNSERVED = "other";

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
  const served = <T extends MeasuredReview | MeasuredShadow>(measured: T): T => {
    const versions = versionsOf.get(measured.crd);
    const crd = versions || summaryWord(measured.crd) ? measured.crd : UNSERVED;
    const known = versions ?? anyVersion;
    const version = (value: string) => (known.has(value) || summaryWord(value) ? value : UNSERVED);
    return { ...measured, crd, from: version(measured.from), to: version(measured.to) };
  };
  return {
    review: (measured) => metrics.review(served(measured)),
    rejected: (reason) => metrics.rejected(reason),
    shadow: (measured) => metrics.shadow(served(measured)),
    pending: () => metrics.pending(),
  };
}
