import { storedForm } from "../kube";
import type { ApiserverVerdict } from "../kube/apiserver";
import { type JsonDifference, jsonDifferences } from "./json-differences";

export type Comparison =
  | { outcome: "same" }
  | { outcome: "different"; differences: JsonDifference[] }
  | { outcome: "baseline-failed"; baseline: string }
  | { outcome: "candidate-failed"; candidate: string }
  | { outcome: "both-failed"; baseline: string; candidate: string };

/**
 * Two answers to the same review, as the cluster would see them: the objects the apiserver keeps
 * (kube's storedForm), or the error a reader would get.
 */
export function compareVerdicts(baseline: ApiserverVerdict, candidate: ApiserverVerdict): Comparison {
  if (!baseline.ok && !candidate.ok)
    return { outcome: "both-failed", baseline: baseline.error, candidate: candidate.error };
  if (!baseline.ok) return { outcome: "baseline-failed", baseline: baseline.error };
  if (!candidate.ok) return { outcome: "candidate-failed", candidate: candidate.error };
  // One object per review: its paths read `spec.port`, not `[0].spec.port`.
  const differences =
    baseline.objects.length === 1 && candidate.objects.length === 1
      ? jsonDifferences(storedForm(baseline.objects[0]), storedForm(candidate.objects[0]))
      : jsonDifferences(baseline.objects.map(storedForm), candidate.objects.map(storedForm));
  return differences.length === 0 ? { outcome: "same" } : { outcome: "different", differences };
}
