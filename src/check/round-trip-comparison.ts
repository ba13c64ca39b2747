import { decodeJson, encodeJson, joinPath, showValue } from "../json";
import { storedForm } from "../kube";
import { type JsonDifference, jsonDifferences } from "../compare";
import { declaredLosses, type DeclaredLoss, type KindDefinition } from "../conversion";

/**
 * What a kind declared about its round trips, and what was accepted under it: an empty object or
 * list (`{}`, `[]`) for an absent field, or the reverse, at the declared paths (defineKind's
 * `emptyIsAbsent`); a field the target requires missing where the source lacked it (`gaps`,
 * declared-gaps.ts). Without a declaration nothing is accepted.
 */
export interface Equivalences {
  emptyIsAbsent?: true | readonly string[] | undefined;
  /** Filled in: each path (list indices as `[]`) where a difference was accepted, and how often. */
  accepted?: Map<string, number>;
  /** By `"from->to"`: the target's paths that may lack what it requires, and why. */
  gaps?: KindDefinition["gaps"];
  /** Filled in: each gap used, by path, and how often. */
  acceptedGaps?: Map<string, number>;
  /** The enum aliases the pair's first converter declared lost (mapping()'s `back: "lose"`). */
  losses?: readonly DeclaredLoss[];
  /** Filled in: each loss accepted, as `path\nfrom\nto`, and how often. */
  acceptedLosses?: Map<string, number>;
}

/** What a kind declared for its round trips, for every check to hold it the same way. */
export function equivalencesOf(kind: KindDefinition | undefined): Equivalences {
  return kind ? { emptyIsAbsent: kind.emptyIsAbsent, gaps: kind.gaps } : {};
}

/**
 * For one pair's round trips: the aliases its route's first converter, the one from the
 * source version, declared lost (a loss at the source's own paths: `from` comes back as `to`).
 */
export function withLosses(equivalences: Equivalences, kind: KindDefinition, from: string, to: string): Equivalences {
  const losses = declaredLosses(kind.route(from, to)?.[0]?.convert);
  return losses.length > 0 ? { ...equivalences, losses } : equivalences;
}

/** For jsonDifferences: whether a difference is one the kind declared the same, counted in `accepted`. */
export function emptyAccepts(equivalences: Equivalences): (difference: JsonDifference) => boolean {
  return (difference) => acceptedEmpty(difference, equivalences);
}

/** Whether a difference is an alias come back as the value it stands for, where its converter declared the loss. */
function acceptedLoss({ path, baseline, candidate }: JsonDifference, equivalences: Equivalences): boolean {
  const general = path.replace(/\[\d+\]/g, "[]");
  const loss = equivalences.losses?.find(
    (one) => one.path === general && one.from === baseline && one.to === candidate,
  );
  if (loss === undefined) return false;
  const key = `${loss.path}\n${loss.from}\n${loss.to}`;
  equivalences.acceptedLosses?.set(key, (equivalences.acceptedLosses.get(key) ?? 0) + 1);
  return true;
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
    accepts: (difference) => acceptedEmpty(difference, equivalences) || acceptedLoss(difference, equivalences),
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

/**
 * Whether a difference is an empty value for an absent field, or the reverse, where the kind
 * declared them equal. Empty is `{}` or `[]` at a declared path, or an object whose every field
 * is empty in that sense at its own declared path (`{list: []}` where both the object's path and
 * `….list` are declared): one declared equivalence composed with another, never more.
 */
function acceptedEmpty({ path, baseline, candidate }: JsonDifference, equivalences: Equivalences): boolean {
  const declared = equivalences.emptyIsAbsent;
  // A list item is no field: one lost or added is a difference even if it is `{}` or `[]`.
  if (declared === undefined || /\[\d+\]$/.test(path)) return false;
  const general = path.replace(/\[\d+\]/g, "[]");
  const isDeclared = (at: string) => declared === true || declared.includes(at);
  const used =
    baseline === undefined
      ? hollowAt(candidate, general, isDeclared)
      : candidate === undefined
        ? hollowAt(baseline, general, isDeclared)
        : undefined;
  if (used === undefined) return false;
  for (const at of used) equivalences.accepted?.set(at, (equivalences.accepted.get(at) ?? 0) + 1);
  return true;
}

/**
 * The declared paths that make `value` empty at `path`, or undefined if it holds something.
 * With its own stack: objects nest deeper than the call stack goes.
 */
function hollowAt(value: unknown, path: string, isDeclared: (path: string) => boolean): string[] | undefined {
  const used: string[] = [];
  const pending: Array<[unknown, string]> = [[value, path]];
  while (pending.length > 0) {
    const [here, at] = pending.pop()!;
    if (typeof here !== "object" || here === null || !isDeclared(at)) return undefined;
    if (Array.isArray(here) && here.length > 0) return undefined;
    used.push(at);
    if (!Array.isArray(here)) for (const [key, field] of Object.entries(here)) pending.push([field, joinPath(at, key)]);
  }
  return used;
}

/** A value for a message: JSON (integers beyond 2^53 as their digits), clipped, or "missing". */
export function show(value: unknown): string {
  return showValue(value, 2_000);
}
