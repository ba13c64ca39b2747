import fc from "fast-check";
import type { JsonObject } from "../../json";
import type { KindDefinition } from "../../conversion";
import { arbitraryFor } from "../../check";

export interface SampleOptions {
  namespaced: boolean;
  /** How many to draw; some may fail their own schema and are dropped. */
  count: number;
  seed?: number;
}

/**
 * Objects of one version as the apiserver would send them: a bare one (`apiVersion`, `kind`,
 * `metadata` only, as server-side apply may send) first, then objects generated from the
 * version's zod schema, each with full metadata, all valid against that schema.
 */
export async function sampleObjects(
  kind: KindDefinition,
  version: string,
  options: SampleOptions,
): Promise<JsonObject[]> {
  const schema = kind.versions.get(version);
  if (!schema) return [];
  const apiVersion = `${kind.group}/${version}`;
  const generated = fc.sample(arbitraryFor(schema), {
    numRuns: options.count,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const candidates = [{}, ...generated].map((fields, index) => ({
    ...fields,
    apiVersion,
    kind: kind.kind,
    metadata: metadata(index, options.namespaced),
  }));
  const valid: JsonObject[] = [];
  for (const candidate of candidates) {
    const result = await schema["~standard"].validate(candidate);
    if (!result.issues) valid.push(candidate);
  }
  return valid;
}

function metadata(index: number, namespaced: boolean): JsonObject {
  return {
    name: `crdshift-doctor-${index}`,
    ...(namespaced ? { namespace: "default" } : {}),
    uid: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
    generation: 1,
    creationTimestamp: "2025-01-01T00:00:00Z",
    labels: { "app.kubernetes.io/managed-by": "crdshift-doctor" },
    annotations: { "crdshift.io/probe": "generated from the registry's schema" },
  };
}
