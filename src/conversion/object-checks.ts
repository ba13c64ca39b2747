import { clip, isJsonObject, type JsonObject, jsonTypeName } from "../json";
import { type GroupVersion, kindLabel, parseApiVersion } from "../kube";
import type { KindDefinition } from "./kind";
import { type Registry, servedKinds } from "./registry";
import { ConversionFailure } from "./conversion-failure";
import { shownApiVersion } from "./failure-messages";
import { sourceMetadataError } from "./metadata-guard";
import { schemaIssue } from "./validate";

/**
 * What an object must be before its converters see it, one check each, in the order a person
 * fixing it would want to hear: readable (apiVersion, kind, metadata), known to this webhook
 * (group, kind, versions), valid in its own version's schema. Each throws a ConversionFailure.
 */

/** The object's group and version, from its apiVersion. */
export function sourceVersion(object: JsonObject): GroupVersion {
  const { apiVersion } = object;
  const source = typeof apiVersion === "string" ? parseApiVersion(apiVersion) : undefined;
  if (!source)
    throw new ConversionFailure(
      "api-version-invalid",
      `apiVersion ${shownApiVersion(apiVersion)}, expected group/version`,
    );
  return source;
}

export function kindOf(object: JsonObject): string {
  const { kind } = object;
  if (typeof kind !== "string" || kind.length === 0) throw new ConversionFailure("kind-missing", "kind is missing");
  return kind;
}

/**
 * The object's metadata, undefined if it has none. null is let through, answered with {} (see
 * the metadata-guard tests: kubernetes#117356).
 */
export function sourceMetadata(object: JsonObject): JsonObject | undefined {
  const metadata = object.metadata;
  if (metadata === undefined || metadata === null) return undefined;
  if (!isJsonObject(metadata))
    throw new ConversionFailure("metadata-invalid", `metadata is ${jsonTypeName(metadata)}, not an object`);
  const issue = sourceMetadataError(metadata);
  if (issue) throw new ConversionFailure("metadata-invalid", issue);
  return metadata;
}

/** The definition of the object's kind, which must know both versions. */
export function kindDefinition(
  registry: Registry,
  kind: string,
  source: GroupVersion,
  desired: GroupVersion,
): KindDefinition {
  const { group } = desired;
  if (source.group !== group)
    throw new ConversionFailure(
      "group-changed",
      `cannot convert between API groups ${clip(source.group)} and ${clip(group)}`,
    );
  const definition = registry.lookup(group, kind);
  if (!definition)
    throw new ConversionFailure(
      "kind-not-served",
      `this webhook has no converters for ${clip(kind)} in group ${clip(group)} (it serves ${servedKinds(registry)})`,
    );
  const { versions } = definition;
  const unknown = !versions.has(source.version)
    ? source.version
    : !versions.has(desired.version)
      ? desired.version
      : undefined;
  if (unknown)
    throw new ConversionFailure(
      "version-not-served",
      `${clip(unknown)} is not a version of ${kindLabel({ kind, group })} (known: ${[...versions.keys()].join(", ")})`,
    );
  return definition;
}

/** Converters may count on their input matching its version's schema. */
export function checkSourceSchema(definition: KindDefinition, version: string, object: JsonObject): void {
  const issue = schemaIssue(definition.versions.get(version)!, object);
  if (issue) throw new ConversionFailure("schema-mismatch", `does not match the ${version} schema: ${issue}`);
}
