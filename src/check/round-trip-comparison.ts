import { joinPath, decodeJson, encodeJson, showValue } from "../json";

/**
 * What a kind declared equal on a round trip, and what was accepted under it: an empty object or
 * list (`{}`, `[]`) for an absent field, or the reverse, at the declared paths (defineKind's
 * `emptyIsAbsent`). Without a declaration nothing is accepted.
 */
export interface Equivalences {
  emptyIsAbsent?: true | readonly string[] | undefined;
  /** Filled in: each path (list indices as `[]`) where a difference was accepted, and how often. */
  accepted?: Map<string, number>;
}

/**
 * Whether an object came back the same from A -> B -> A, as the apiserver would see it, and if
 * not, where it first differs, in words.
 */
export function roundTripDifference(sent: unknown, back: unknown, equivalences: Equivalences = {}): string | undefined {
  return firstDifference(asStored(sent), asStored(back), "", equivalences);
}

/**
 * The object as the apiserver stores it: JSON (integers beyond 2^53 exact); empty label and
 * annotation maps the same as none, and missing metadata the same as empty (the apiserver
 * restores an object's metadata after conversion).
 */
function asStored(object: unknown): unknown {
  const copy = decodeJson(encodeJson(object)).value;
  if (typeof copy !== "object" || copy === null || Array.isArray(copy)) return copy;
  const record = copy as Record<string, unknown>;
  const metadata = isRecord(record.metadata) ? record.metadata : {};
  for (const field of ["labels", "annotations"]) {
    const map = metadata[field];
    if (isRecord(map) && Object.keys(map).length === 0) delete metadata[field];
  }
  record.metadata = metadata;
  return record;
}

function firstDifference(a: unknown, b: unknown, path: string, equivalences: Equivalences): string | undefined {
  const where = path || "the object";
  if ((a === undefined && isEmpty(b)) || (b === undefined && isEmpty(a))) {
    const general = path.replace(/\[\d+\]/g, "[]");
    const declared = equivalences.emptyIsAbsent;
    if (declared === true || declared?.includes(general)) {
      equivalences.accepted?.set(general, (equivalences.accepted.get(general) ?? 0) + 1);
      return undefined;
    }
  }
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null)
    return Object.is(a, b) ? undefined : `${where} was ${show(a)}, came back ${show(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${where} changed from ${show(a)} to ${show(b)}`;
  // A list item is no field: one lost or added is a difference even if it is `{}` or `[]`.
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length)
    return `${where} had ${a.length} items, came back with ${b.length}: ${show(a)} -> ${show(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  // Own fields only: a field named __proto__ that is missing must not read as the prototype.
  const field = (object: object, key: string) =>
    Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
  for (const key of keys) {
    const next = Array.isArray(a) ? `${path}[${key}]` : joinPath(path, key);
    const found = firstDifference(field(a, key), field(b, key), next, equivalences);
    if (found) return found;
  }
  return undefined;
}

/** A value for a message: JSON (integers beyond 2^53 as their digits), clipped, or "missing". */
export function show(value: unknown): string {
  return showValue(value, 2_000);
}

function isEmpty(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length === 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
