import { decodeJson, encodeJson, showValue } from "../json";
import { storedForm } from "../kube";
import { type JsonDifference, jsonDifferences } from "../compare";

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
 * Whether an object came back the same from A -> B -> A, as the apiserver would see it (JSON,
 * integers beyond 2^53 exact, kube's storedForm), and if not, where it first differs, in words.
 */
export function roundTripDifference(sent: unknown, back: unknown, equivalences: Equivalences = {}): string | undefined {
  const [first] = jsonDifferences(asStored(sent), asStored(back), {
    limit: 1,
    // A list item is no field: one lost or added is a difference even if it is `{}` or `[]`.
    wholeLists: true,
    accepts: (difference) => acceptedEmpty(difference, equivalences),
  });
  if (!first) return undefined;
  const { path, baseline: a, candidate: b } = first;
  const where = path || "the object";
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null)
    return `${where} was ${show(a)}, came back ${show(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${where} changed from ${show(a)} to ${show(b)}`;
  const [had, came] = [a, b] as unknown[][];
  return `${where} had ${had!.length} items, came back with ${came!.length}: ${show(a)} -> ${show(b)}`;
}

function asStored(object: unknown): unknown {
  return storedForm(decodeJson(encodeJson(object)).value);
}

/** Whether a difference is an empty object or list for an absent field, or the reverse, where the kind declared them equal. */
function acceptedEmpty({ path, baseline, candidate }: JsonDifference, equivalences: Equivalences): boolean {
  if (!((baseline === undefined && isEmpty(candidate)) || (candidate === undefined && isEmpty(baseline)))) return false;
  const general = path.replace(/\[\d+\]/g, "[]");
  const declared = equivalences.emptyIsAbsent;
  if (declared !== true && !declared?.includes(general)) return false;
  equivalences.accepted?.set(general, (equivalences.accepted.get(general) ?? 0) + 1);
  return true;
}

/** A value for a message: JSON (integers beyond 2^53 as their digits), clipped, or "missing". */
export function show(value: unknown): string {
  return showValue(value, 2_000);
}

function isEmpty(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length === 0;
}
