import { isJsonObject, type JsonObject } from "../json";

/**
 * A converted object as the apiserver keeps it, for comparing two: of its metadata only what a
 * converter may change, labels and annotations (the apiserver restores the rest from the object
 * it sent, restoreObjectMeta), an empty or null map the same as none, and no metadata the same
 * as empty. Anything but an object is returned as it is. The object itself is not changed.
 */
export function storedForm(object: unknown): unknown {
  if (!isJsonObject(object)) return object;
  const metadata = isJsonObject(object.metadata) ? object.metadata : {};
  const kept: JsonObject = {};
  for (const field of ["labels", "annotations"] as const) {
    const map = metadata[field];
    if (map === undefined || map === null || (isJsonObject(map) && Object.keys(map).length === 0)) continue;
    kept[field] = map;
  }
  // A spread copies every field as data, a `__proto__` one too.
  return { ...object, metadata: kept };
}
