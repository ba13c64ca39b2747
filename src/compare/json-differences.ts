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
 */
export function jsonDifferences(
  baseline: unknown,
  candidate: unknown,
  options: DifferenceOptions = {},
): JsonDifference[] {
  const walk = new DifferenceWalk(baseline, candidate, options);
  walk.advance(Number.POSITIVE_INFINITY);
  return walk.found;
}

/** A pair of lists or of objects being walked: where the walk stands in it. */
interface Frame {
  a: unknown;
  b: unknown;
  at: string;
  /** The baseline's own field names, then the candidate's; undefined for lists. */
  keys: [string[], string[]] | undefined;
  /** Children in all: the longer list's length, or both key lists'. */
  size: number;
  next: number;
}

/**
 * The comparison as a walk that can stop and go on: `advance(n)` compares at most n more pairs
 * of values, so a caller with a budget (the shadow, between live requests) takes it in slices
 * and gives up when the budget is spent. It stops for good at `limit` differences. It holds one
 * frame per level it is in, never a list of the children to come: a million-item list costs a
 * frame, not a million pending entries. Walked with a stack of its own, not by recursion:
 * objects nest as deep as the apiserver stores them (10,000 levels), deeper than the call stack.
 */
export class DifferenceWalk {
  readonly found: JsonDifference[] = [];
  /** Pairs of values compared so far: the walk's work, counted rather than timed. */
  steps = 0;
  private readonly limit: number;
  private readonly wholeLists: boolean;
  private readonly accepts: ((difference: JsonDifference) => boolean) | undefined;
  private readonly frames: Frame[] = [];
  private first: [unknown, unknown] | undefined;

  constructor(baseline: unknown, candidate: unknown, options: DifferenceOptions = {}) {
    this.limit = options.limit ?? Number.POSITIVE_INFINITY;
    this.wholeLists = options.wholeLists ?? false;
    this.accepts = options.accepts;
    this.first = [baseline, candidate];
  }

  /** Whether the walk is over: every pair compared, or `limit` differences found. */
  get done(): boolean {
    return this.found.length >= this.limit || (this.first === undefined && this.frames.length === 0);
  }

  /** Compares up to `budget` more pairs; returns `done`. */
  advance(budget: number): boolean {
    const until = this.steps + budget;
    if (this.first) {
      const [a, b] = this.first;
      this.first = undefined;
      this.visit(a, b, undefined, "");
    }
    while (this.steps < until && !this.done) {
      const frame = this.frames[this.frames.length - 1]!;
      if (frame.next >= frame.size) {
        this.frames.pop();
        continue;
      }
      const index = frame.next++;
      if (frame.keys === undefined) {
        const left = frame.a as unknown[];
        const right = frame.b as unknown[];
        this.visit(left[index], right[index], frame, index);
        continue;
      }
      const [leftKeys, rightKeys] = frame.keys;
      const left = frame.a as Record<string, unknown>;
      const right = frame.b as Record<string, unknown>;
      if (index < leftKeys.length) {
        const key = leftKeys[index]!;
        // Own fields only: a field named __proto__ that is missing must not read as the prototype.
        this.visit(left[key], Object.hasOwn(right, key) ? right[key] : undefined, frame, key);
        continue;
      }
      const key = rightKeys[index - leftKeys.length]!;
      // A field both sides have was compared with the baseline's; passing over it is work too.
      if (Object.hasOwn(left, key)) this.steps++;
      else this.visit(undefined, right[key], frame, key);
    }
    return this.done;
  }

  /** Compares one pair, `key` of `parent` (none: the root); its path is written only if needed. */
  private visit(a: unknown, b: unknown, parent: Frame | undefined, key: string | number): void {
    this.steps++;
    if (sameScalar(a, b)) return;
    const at = parent === undefined ? "" : typeof key === "number" ? `${parent.at}[${key}]` : joinPath(parent.at, key);
    const bothArrays = Array.isArray(a) && Array.isArray(b);
    if (
      (!bothArrays && !(isJsonObject(a) && isJsonObject(b))) ||
      (bothArrays && this.wholeLists && a.length !== b.length)
    ) {
      const difference = differenceAt(at, a, b);
      if (!this.accepts?.(difference)) this.found.push(difference);
      return;
    }
    if (bothArrays) {
      this.frames.push({ a, b, at, keys: undefined, size: Math.max(a.length, b.length), next: 0 });
      return;
    }
    const keys: [string[], string[]] = [Object.keys(a as object), Object.keys(b as object)];
    this.frames.push({ a, b, at, keys, size: keys[0].length + keys[1].length, next: 0 });
  }
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
