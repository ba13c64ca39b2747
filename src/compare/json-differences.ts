import { isJsonObject, joinPath } from "../json";

/** One place where two JSON values differ; a side without the field has no value. */
export interface JsonDifference {
  /** As crdshift prints every path (json/field-path.ts): `spec.port`, `items[2]`, `metadata.annotations["example.com/x"]`; `""` is the whole value. */
  path: string;
  baseline?: unknown;
  candidate?: unknown;
}

export interface DifferenceOptions {
  /** Stop after this many differences (the first, for a check that names one). */
  limit?: number;
  /** A list whose length changed is one difference at the list, not one per item. */
  wholeLists?: boolean;
  /** Whether to pass over a difference (one a kind declared equal): asked before it is listed. */
  accepts?: (difference: JsonDifference) => boolean;
}

/**
 * Where two JSON values differ, leaf by leaf, in document order: the one walker behind
 * `crdshift diff`, `check`, golden files and shadow logs. A value of another type, or a field
 * present on one side only, is one difference at that path (not one per leaf below it).
 * Walked with a stack of its own, not by recursion: objects nest as deep as the apiserver
 * stores them (10,000 levels), deeper than the call stack goes.
 */
export function jsonDifferences(
  baseline: unknown,
  candidate: unknown,
  options: DifferenceOptions = {},
): JsonDifference[] {
  const { limit = Number.POSITIVE_INFINITY, wholeLists = false, accepts } = options;
  const found: JsonDifference[] = [];
  const pending: Array<[unknown, unknown, string]> = [[baseline, candidate, ""]];
  while (pending.length > 0 && found.length < limit) {
    const [a, b, at] = pending.pop()!;
    if (sameScalar(a, b)) continue;
    const bothArrays = Array.isArray(a) && Array.isArray(b);
    if ((!bothArrays && !(isJsonObject(a) && isJsonObject(b))) || (bothArrays && wholeLists && a.length !== b.length)) {
      const difference = differenceAt(at, a, b);
      if (!accepts?.(difference)) found.push(difference);
      continue;
    }
    const children: Array<[unknown, unknown, string]> = [];
    if (bothArrays) {
      const left = a as unknown[];
      const right = b as unknown[];
      for (let i = 0; i < Math.max(left.length, right.length); i++) children.push([left[i], right[i], `${at}[${i}]`]);
    } else {
      const left = a as Record<string, unknown>;
      const right = b as Record<string, unknown>;
      // Own fields only: a field named __proto__ that is missing must not read as the prototype.
      for (const key of [...Object.keys(left), ...Object.keys(right).filter((key) => !Object.hasOwn(left, key))]) {
        const x = Object.hasOwn(left, key) ? left[key] : undefined;
        const y = Object.hasOwn(right, key) ? right[key] : undefined;
        children.push([x, y, joinPath(at, key)]);
      }
    }
    // Last first onto the stack, so the first child is compared next: document order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return found;
}

function differenceAt(path: string, baseline: unknown, candidate: unknown): JsonDifference {
  return {
    path,
    ...(baseline !== undefined ? { baseline } : {}),
    ...(candidate !== undefined ? { candidate } : {}),
  };
}

function sameScalar(a: unknown, b: unknown): boolean {
  if (typeof a === "object" && a !== null) return false;
  if (typeof b === "object" && b !== null) return false;
  // int64 beyond 2^53 arrives as bigint on one side and maybe as a number on the other.
  if ((typeof a === "bigint" || typeof b === "bigint") && wholeNumber(a) && wholeNumber(b))
    return BigInt(a) === BigInt(b);
  return Object.is(a, b);
}

function wholeNumber(value: unknown): value is number | bigint {
  return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
}
