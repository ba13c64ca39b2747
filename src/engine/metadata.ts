import { quote } from "../clip";
import { ConversionFailure } from "./conversion-failure";
import { goTypeName, isJsonObject, type JsonObject, jsonTypeName } from "./json-values";
import { annotationsError, labelsError } from "./labels";

const MUTABLE_FIELDS = ["labels", "annotations"] as const;

/**
 * The metadata of a converted object, under the apiserver's rules: only `labels` and
 * `annotations` may change, everything else comes back as it was sent. Unlike the apiserver,
 * a converter that omits labels or annotations (or all metadata) does not delete them: they
 * are restored, so a careless converter cannot strip them. An explicit `{}` clears them.
 * Returns the metadata to send; throws invalid-metadata when the converter's labels or
 * annotations are invalid.
 */
export function guardMetadata(original: JsonObject | undefined, converted: unknown): JsonObject {
  // The original object is ours (parsed from the request) and untouched by converters, which
  // work on a copy: reuse it unless labels or annotations change.
  let metadata: JsonObject = original ?? {};
  let copied = false;
  const fromConverter = isJsonObject(converted) ? converted : undefined;
  for (const field of MUTABLE_FIELDS) {
    const next = fromConverter?.[field];
    if (next === undefined || next === null) continue;
    if (!isJsonObject(next)) {
      invalidMetadata(`invalid metadata.${field} of type ${goTypeName(next)} in converted object`);
    }
    const bad = nonStringKey(next);
    if (bad !== undefined) {
      invalidMetadata(
        `metadata.${field}[${bad}] must be a string, but is ${goTypeName(next[bad])} in converted object`,
      );
    }
    const strings = next as Record<string, string>;
    const before = original?.[field];
    if (isJsonObject(before) && sameStrings(before, strings)) continue;
    const invalid = field === "labels" ? labelsError(strings) : annotationsError(strings);
    if (invalid) invalidMetadata(invalid);
    if (!copied) {
      metadata = { ...metadata };
      copied = true;
    }
    metadata[field] = strings;
  }
  return metadata;
}

function invalidMetadata(problem: string): never {
  throw new ConversionFailure("invalid-metadata", problem);
}

function sameStrings(a: JsonObject, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  if (Object.keys(a).length !== keys.length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

const STRING_FIELDS = ["name", "namespace", "uid", "generateName", "resourceVersion"] as const;

/**
 * Why an object's own metadata could never have come from an apiserver (which decodes it into
 * Go's ObjectMeta), or undefined. Such an object cannot be answered with a reply the apiserver
 * accepts, so it fails here, named, instead of there, opaquely. A few type checks per object.
 */
export function sourceMetadataError(metadata: JsonObject): string | undefined {
  for (const field of STRING_FIELDS) {
    const value = metadata[field];
    if (value !== undefined && value !== null && typeof value !== "string")
      return `metadata.${field} is ${jsonTypeName(value)}, not a string`;
  }
  for (const field of MUTABLE_FIELDS) {
    const value = metadata[field];
    if (value === undefined || value === null) continue;
    if (!isJsonObject(value)) return `metadata.${field} is ${jsonTypeName(value)}, not a map of strings`;
    const bad = nonStringKey(value);
    if (bad !== undefined) return `metadata.${field}[${quote(bad)}] is ${jsonTypeName(value[bad])}, not a string`;
  }
  return undefined;
}

/** The first key of a labels or annotations map whose value is not a string. */
function nonStringKey(map: JsonObject): string | undefined {
  for (const key of Object.keys(map)) if (typeof map[key] !== "string") return key;
  return undefined;
}
