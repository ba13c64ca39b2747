/**
 * The shape of a review body, read in one pass over its text before it is parsed: how deep it
 * nests, whether it holds a number long enough to be an int64 beyond 2^53, and the length of
 * its largest item (an array or object opened at depth 4, which in a
 * ConversionReview is an element of `request.objects`). Needed for bodies that may hold an
 * int64 (their parser recurses) or an item over the size limit; for the rest, the parsed tree's
 * depth (`treeDepth`) is four times cheaper than this pass.
 */
export interface BodyShape {
  depth: number;
  /** Whether a number of 16 or more digits appears (outside strings): an int64 may need exact parsing. */
  longNumber: boolean;
  /** In UTF-16 code units of the text; its UTF-8 size is between that and three times that. */
  largestItem: number;
}

const ITEM_DEPTH = 4;

export function scanBody(text: string): BodyShape {
  let longNumber = false;
  let digits = 0;
  let depth = 0;
  let max = 0;
  let itemStart = 0;
  let largestItem = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Jump to the closing quote: the next one not escaped by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      for (;;) {
        if (end < 0) return { depth: max, largestItem, longNumber };
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 92) slashes++;
        if ((slashes & 1) === 0) break;
        end = text.indexOf('"', end + 1);
      }
      i = end + 1;
      digits = 0;
      continue;
    }
    if (c >= 48 && c <= 57) {
      if (++digits === 16) longNumber = true;
      i++;
      continue;
    }
    digits = 0;
    if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
      if (depth === ITEM_DEPTH) itemStart = i;
    } else if (c === 125 || c === 93) {
      if (depth === ITEM_DEPTH && i + 1 - itemStart > largestItem) largestItem = i + 1 - itemStart;
      depth--;
    }
    i++;
  }
  return { depth: max, largestItem, longNumber };
}

/**
 * How deeply a parsed JSON value nests (a scalar 0, `[]` 1), the same count as `scanBody`'s.
 * Iterative: V8's JSON.parse accepts any depth, so this must too.
 */
export function treeDepth(root: unknown): number {
  if (typeof root !== "object" || root === null) return 0;
  const values: object[] = [root];
  const depths: number[] = [1];
  let max = 0;
  while (values.length > 0) {
    const value = values.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > max) max = depth;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === "object" && item !== null) (values.push(item), depths.push(depth + 1));
      }
    } else {
      for (const key in value) {
        const item = value[key];
        if (typeof item === "object" && item !== null) (values.push(item), depths.push(depth + 1));
      }
    }
  }
  return max;
}
