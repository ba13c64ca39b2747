import { goTypeName, isJsonObject, type JsonObject } from "../../json";
import { annotationsError, labelsError } from "../labels";
/**
 * What the apiserver checks and keeps of a converted object's metadata (`validateConvertedObject`,
 * `restoreObjectMeta` in apiextensions `webhook_converter.go`).
 */

/** Unstructured's `getNestedString`: the string at `metadata.<field>`, "" for anything else. */
function metadataString(object: JsonObject, field: string): string {
  const metadata = object.metadata;
  if (!isJsonObject(metadata) || !Object.hasOwn(metadata, field)) return "";
  const value = metadata[field];
  return typeof value === "string" ? value : "";
}

/** Name, namespace and UID must stay; why not, or undefined. */
export function sameIdentityError(original: JsonObject, converted: JsonObject): string | undefined {
  for (const [field, label] of [
    ["name", "name"],
    ["namespace", "namespace"],
    ["uid", "UID"],
  ] as const) {
    const before = metadataString(original, field);
    const after = metadataString(converted, field);
    if (before !== after) return `must have the same ${label}: ${before} != ${after}`;
  }
  return undefined;
}

/**
 * The object the apiserver keeps: metadata from the original, labels and annotations from the
 * reply (validated where they changed). A string says why it refuses.
 */
export function restoreObjectMeta(original: JsonObject, converted: JsonObject): JsonObject | string {
  if (!Object.hasOwn(converted, "metadata")) return "missing metadata in converted object";
  const metadata = converted.metadata;
  if (!isJsonObject(metadata)) return `invalid metadata of type ${goTypeName(metadata)} in converted object`;
  const kept = Object.hasOwn(original, "metadata") ? original.metadata : {};
  if (!isJsonObject(kept)) return `invalid metadata of type ${goTypeName(kept)} in input object`;
  const result: JsonObject = { ...kept };
  for (const field of ["labels", "annotations"] as const) {
    const value = Object.hasOwn(metadata, field) ? metadata[field] : undefined;
    if (value === undefined || value === null) {
      delete result[field]; // the apiserver deletes what the reply omits
      continue;
    }
    if (!isJsonObject(value)) return `invalid metadata.${field} of type ${goTypeName(value)} in converted object`;
    const before = Object.hasOwn(result, field) ? result[field] : undefined;
    if (before !== undefined && before !== null && !isJsonObject(before))
      return `invalid metadata.${field} of type ${goTypeName(before)} in original object`;
    const previous: JsonObject = isJsonObject(before) ? before : {};
    let changed = Object.keys(previous).length !== Object.keys(value).length;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== "string") {
        return `metadata.${field}[${key}] must be a string, but is ${goTypeName(item)} in converted object`;
      }
      if (!Object.hasOwn(previous, key) || previous[key] !== item) changed = true;
    }
    const strings = value as Record<string, string>;
    if (changed) {
      const error = field === "labels" ? labelsError(strings) : annotationsError(strings);
      // The apiserver names the annotations' path `metadata.annotation` (sic).
      if (error) return error.replace("metadata.annotations", "metadata.annotation");
    }
    result[field] = strings;
  }
  return { ...converted, metadata: result };
}
