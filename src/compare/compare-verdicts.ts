import { isJsonObject, type JsonObject } from "../json";
import type { ApiserverVerdict } from "../kube";
import { type JsonDifference, jsonDifferences } from "./json-differences";

export type Comparison =
  | { outcome: "same" }
  | { outcome: "different"; differences: JsonDifference[] }
  | { outcome: "baseline-failed"; baseline: string }
  | { outcome: "candidate-failed"; candidate: string }
  | { outcome: "both-failed"; baseline: string; candidate: string };

/**
 * Two answers to the same review, as the cluster would see them: the objects the apiserver keeps
 * (checkReply restores metadata but labels and annotations), or the error a reader would get.
 * An empty label or annotation map is the same as none, as it is to Kubernetes.
 */
export function compareVerdicts(baseline: ApiserverVerdict, candidate: ApiserverVerdict): Comparison {
  if (!baseline.ok && !candidate.ok)
    return { outcome: "both-failed", baseline: baseline.error, candidate: candidate.error };
  if (!baseline.ok) return { outcome: "baseline-failed", baseline: baseline.error };
  if (!candidate.ok) return { outcome: "candidate-failed", candidate: candidate.error };
  const differences = jsonDifferences(baseline.objects.map(kept), candidate.objects.map(kept)).map((difference) => ({
    ...difference,
    // One object per review: `[0].port` reads better as `.port`.
    path: baseline.objects.length === 1 ? difference.path.replace(/^\[0\]/, "") || "." : difference.path,
  }));
  return differences.length === 0 ? { outcome: "same" } : { outcome: "different", differences };
}

function kept(object: JsonObject): JsonObject {
  if (!isJsonObject(object.metadata)) return object;
  const metadata: JsonObject = { ...object.metadata };
  for (const field of ["labels", "annotations"]) {
    if (isJsonObject(metadata[field]) && Object.keys(metadata[field]).length === 0) delete metadata[field];
  }
  return { ...object, metadata };
}
