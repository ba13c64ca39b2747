import {
  quote,
  objectPrototypeIsPolluted,
  copyJson,
  goTypeName,
  isJsonObject,
  type JsonObject,
  jsonTypeName,
  setField,
} from "../json";
import { ConversionFailure } from "./conversion-failure";
import { annotationsError, labelsError } from "../kube";

/** The metadata fields a converter may change. */
type MutableField = "labels" | "annotations";

/**
 * The metadata of a converted object, under the apiserver's rules: only `labels` and
 * `annotations` may change, everything else comes back as it was sent. Unlike the apiserver,
 * a converter that omits labels or annotations (or all metadata) does not delete them: they
 * are restored, so a careless converter cannot strip them. An explicit `{}` clears them.
 * Returns the metadata to send; throws invalid-metadata when the converter's labels or
 * annotations are invalid.
 */
export function guardMetadata(original: JsonObject | undefined, converted: unknown): JsonObject {
  // Each field read by name.
  const fromConverter = isJsonObject(converted) ? converted : undefined;
  return guardMaps(original, new ConvertedMaps(readMap(fromConverter?.labels), readMap(fromConverter?.annotations)));
}

/**
 * A converter's labels and annotations as the guard reads them, each read once: a map as its
 * names and values (a `MapRead`), anything else as it is. The engine reads them so from a
 * converter's result (converter-result.ts), where what the reading throws is the converter's.
 */
export class ConvertedMaps {
  constructor(
    readonly labels: unknown,
    readonly annotations: unknown,
  ) {}
}

/** A map's own names and values, in bulk (`Object.keys`, `Object.values`). */
export class MapRead {
  constructor(
    readonly keys: string[],
    readonly values: unknown[],
  ) {}

  /** The one way a map is read: its names and values, each in one call. */
  static of(map: object): MapRead {
    return new MapRead(Object.keys(map), Object.values(map));
  }
}

/** A converted metadata field as the guard reads it: a map's names and values, read in bulk, or the value as it is. */
export function readMap(value: unknown): unknown {
  return isJsonObject(value) ? MapRead.of(value) : value;
}

/** `guardMetadata` of labels and annotations already read. */
export function guardMaps(original: JsonObject | undefined, converted: ConvertedMaps): JsonObject {
  // The original object is ours (parsed from the request) and untouched by converters, which
  // work on a copy: reuse it unless labels or annotations change.
  const labels = changedMap("labels", converted.labels, original?.labels);
  const annotations = changedMap("annotations", converted.annotations, original?.annotations);
  if (labels === undefined && annotations === undefined) return original ?? {};
  const metadata: JsonObject = { ...original };
  if (labels !== undefined) metadata.labels = labels;
  if (annotations !== undefined) metadata.annotations = annotations;
  return metadata;
}

/**
 * The converter's labels or annotations (`next`), when they are to replace the original ones
 * (`before`): undefined when left out or unchanged. Throws when they are invalid.
 */
function changedMap(field: MutableField, next: unknown, before: unknown): Record<string, string> | undefined {
  if (next === undefined || next === null) return undefined;
  if (!(next instanceof MapRead)) {
    invalidMetadata(field, `invalid metadata.${field} of type ${goTypeName(next)} in converted object`);
  }
  // Keys and values read once, in bulk, for both checks: all strings, and unchanged.
  const { keys, values } = next;
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== "string") {
      invalidMetadata(
        field,
        `metadata.${field}[${keys[i]}] must be a string, but is ${goTypeName(values[i])} in converted object`,
      );
    }
  }
  if (isJsonObject(before) && sameStrings(before, keys, values as string[])) return undefined;
  // Changed: a map of crdshift's own, built from what was read.
  const strings: Record<string, string> = {};
  for (let i = 0; i < keys.length; i++) setField(strings, keys[i]!, values[i] as string);
  const invalid = field === "labels" ? labelsError(strings) : annotationsError(strings);
  if (invalid) invalidMetadata(field, invalid);
  return strings;
}

function invalidMetadata(field: MutableField, problem: string): never {
  throw new ConversionFailure(field === "labels" ? "labels-invalid" : "annotations-invalid", problem);
}

/** Whether the map of `keys` and `values` holds the same strings under the same keys as `a`. */
function sameStrings(a: JsonObject, keys: string[], values: string[]): boolean {
  // `a` is the original's map: plain data, read with for-in where that yields its own keys
  // alone (two arrays fewer per map than Object.keys and Object.values).
  if (Object.getPrototypeOf(a) === Object.prototype && !objectPrototypeIsPolluted())
    return sameStringsInOrder(a, keys, values);
  const keysBefore = Object.keys(a);
  if (keysBefore.length !== keys.length) return false;
  // A converter that kept the map has it in the same order: compared by position, with no
  // lookup by key. Otherwise key by key.
  const valuesBefore = Object.values(a);
  let inOrder = true;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== keysBefore[i]) {
      inOrder = false;
      break;
    }
    if (values[i] !== valuesBefore[i]) return false;
  }
  if (inOrder) return true;
  return sameByKey(a, keys, values);
}

/** `sameStrings` for an `a` whose for-in yields `Object.keys(a)`, in that order. */
function sameStringsInOrder(a: JsonObject, keys: string[], values: string[]): boolean {
  let i = 0;
  let inOrder = true;
  for (const key in a) {
    if (i === keys.length) return false; // more keys than the converter's
    if (inOrder) {
      if (key !== keys[i]) inOrder = false;
      else if (a[key] !== values[i]) return false;
    }
    i++;
  }
  if (i !== keys.length) return false;
  return inOrder || sameByKey(a, keys, values);
}

function sameByKey(a: JsonObject, keys: string[], values: string[]): boolean {
  for (let i = 0; i < keys.length; i++) if (a[keys[i]!] !== values[i]) return false;
  return true;
}

/**
 * Why an object's own metadata could never have come from an apiserver (which decodes it into
 * Go's ObjectMeta), or undefined. Such an object cannot be answered with a reply the apiserver
 * accepts, so it fails here, named, instead of there, opaquely. A few type checks per object,
 * each field read by name (a loop over names would look each up by key, several times slower).
 */
export function sourceMetadataError(metadata: JsonObject): string | undefined {
  const field = !stringOrAbsent(metadata.name)
    ? "name"
    : !stringOrAbsent(metadata.namespace)
      ? "namespace"
      : !stringOrAbsent(metadata.uid)
        ? "uid"
        : !stringOrAbsent(metadata.generateName)
          ? "generateName"
          : !stringOrAbsent(metadata.resourceVersion)
            ? "resourceVersion"
            : undefined;
  if (field !== undefined) return `metadata.${field} is ${jsonTypeName(metadata[field])}, not a string`;
  return stringMapError("labels", metadata.labels) ?? stringMapError("annotations", metadata.annotations);
}

function stringOrAbsent(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "string";
}

function stringMapError(field: MutableField, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) return `metadata.${field} is ${jsonTypeName(value)}, not a map of strings`;
  const bad = nonStringKey(value);
  if (bad !== undefined) return `metadata.${field}[${quote(bad)}] is ${jsonTypeName(value[bad])}, not a string`;
  return undefined;
}

/** The first key of a labels or annotations map whose value is not a string. */
function nonStringKey(map: JsonObject): string | undefined {
  // for-in reads each value by V8's for-in fast path, several times cheaper than
  // `Object.values`. It yields the own keys first, in `Object.keys` order, then any inherited
  // ones: only a key whose value is not a string is asked whether it is the map's own.
  for (const key in map) {
    if (typeof map[key] !== "string" && Object.hasOwn(map, key)) return key;
  }
  return undefined;
}

/**
 * The converter's private copy of an object's metadata, one `sourceMetadataError` accepted: a
 * deep copy, except `managedFields`, which is shared. It is most of the bytes (its fieldsV1
 * tree), converters have no business there, and the apiserver throws away every
 * metadata change but labels and annotations anyway (restoreObjectMeta), so copying it would
 * protect nothing the cluster sees. Labels and annotations, maps of strings, take one spread.
 */
export function privateMetadata(metadata: JsonObject): JsonObject {
  // A spread copies every key as data (`__proto__` too) and keeps the original's shape; then
  // the values that are objects are copied in place. Keys read with for-in (V8's fast path,
  // several times cheaper than `Object.values`): the copy is a plain object, so for-in yields
  // only its own keys unless Object.prototype is polluted. Labels and annotations are written by
  // name: a store by a key held in a variable costs several times more.
  const copy: JsonObject = { ...metadata };
  if (objectPrototypeIsPolluted()) {
    for (const key of Object.keys(copy)) copyField(copy, key);
    return copy;
  }
  const { labels, annotations } = copy;
  if (typeof labels === "object" && labels !== null && Object.hasOwn(copy, "labels")) copy.labels = { ...labels };
  if (typeof annotations === "object" && annotations !== null && Object.hasOwn(copy, "annotations"))
    copy.annotations = { ...annotations };
  for (const key in copy) if (key !== "labels" && key !== "annotations") copyField(copy, key);
  return copy;
}

/** Copies a field in place if its value is an object (but managedFields, shared). */
function copyField(copy: JsonObject, key: string): void {
  const value = copy[key];
  if (typeof value !== "object" || value === null || key === "managedFields") return;
  // An own `__proto__` field is a data property: assigning to it cannot reach the prototype.
  copy[key] = key === "labels" || key === "annotations" ? { ...value } : copyJson(value);
}
