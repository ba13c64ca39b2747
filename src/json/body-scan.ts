import { stringEnd } from "./string-end";
import { utf8Length } from "./size";

/**
 * The shape of a review body, read in one pass over its text before it is parsed, so that a
 * body over a limit is refused before its tree is built (building it is what costs; this pass
 * is a small part of that: docs/performance.md, What one body can cost). It finds how deep the
 * body nests, whether a number may need the careful decoder (numbers.ts), and where
 * `request.objects` is, how many elements it holds and which first exceeds the size limit.
 */
export interface BodyShape {
  depth: number;
  /**
   * Whether a number outside strings has 16 or more digits in a row or an exponent of 3 or
   * more digits: the only numbers JSON.parse may not keep (an int64 beyond 2^53, or a value
   * beyond the range of a double).
   */
  carefulNumbers: boolean;
  /** `request.objects`, when the body spells those keys plainly (as every apiserver does); the last if repeated. */
  objects?: ObjectsSpan;
  /** How many arrays were found as `request.objects`: 1 in any review not written to confuse. */
  objectsArrays: number;
  /**
   * Whether a string in the body (a key, or a value) reads `__proto__`, spelled plainly or with
   * `\u` escapes: false means no object in it has a key of that name (proto-keys.ts).
   */
  protoKey: boolean;
  /** Objects and arrays in the body: what its parsed tree costs grows with these (conversion/held-memory.ts). */
  containers: number;
  /** Commas and colons outside strings: one per member or element past the first, about one per value. */
  separators: number;
}

interface ObjectsSpan {
  /** Positions of its `[` and `]`. */
  start: number;
  end: number;
  count: number;
  /**
   * Positions of the commas between its elements, so that each can be decoded on its own; empty
   * when it holds more elements than the scan was asked to place (`commasRecorded`).
   */
  commas: number[];
  /** The first element larger than the scan's size limit, in UTF-8 bytes of its text. */
  oversized?: { index: number; bytes: number; metadata?: { start: number; end: number } };
}

// root {, request {, objects [, then the object.
const ITEM_DEPTH = 4;

/**
 * `itemLimitBytes`: the size an element of `request.objects` may have; larger ones are
 * reported in `objects.oversized`. `itemsPlaced`: the most elements whose places are recorded
 * (`objects.commas`); past it, none are (a body of that many is refused anyway).
 */
export function scanBody(text: string, itemLimitBytes = Infinity, itemsPlaced = 0): BodyShape {
  // UTF-8 takes at most three bytes per UTF-16 unit: shorter items cannot exceed the limit.
  const candidateLength = itemLimitBytes / 3;
  let carefulNumbers = false;
  let protoKey = false;
  let digits = 0;
  let depth = 0;
  let max = 0;
  let itemStart = 0;
  let objectsArrays = 0;
  let containers = 0;
  let separators = 0;
  // The last string passed: when a container opens as an object's member, its key.
  let keyStart = 0;
  let keyEnd = 0;
  let inRequest = false;
  let objects: ObjectsSpan | undefined;
  let inObjects = false;
  let index = 0;
  let metadataStart = -1;
  let metadataEnd = -1;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      if (end < 0)
        return {
          depth: max,
          carefulNumbers,
          objectsArrays,
          protoKey,
          containers,
          separators,
          ...(objects ? { objects } : {}),
        };
      // `__proto__` starts with `_`, plainly or as `\u005f`: one comparison for nearly every string.
      const first = text.charCodeAt(i + 1);
      if ((first === 95 /* _ */ || first === 92) /* \ */ && !protoKey) protoKey = readsProto(text, i, end);
      keyStart = i + 1;
      keyEnd = end;
      i = end + 1;
      digits = 0;
      continue;
    }
    if (c >= 48 && c <= 57) {
      if (++digits === 16) carefulNumbers = true;
      i++;
      continue;
    }
    digits = 0;
    if (c === 123 /* { */ || c === 91 /* [ */) {
      containers++;
      if (++depth > max) max = depth;
      if (depth === ITEM_DEPTH) {
        itemStart = i;
        metadataStart = metadataEnd = -1;
      } else if (depth === 2) {
        inRequest = c === 123 && isKey(text, keyStart, keyEnd, "request");
      } else if (depth === 3 && inRequest && c === 91 && isKey(text, keyStart, keyEnd, "objects")) {
        // A repeated key replaces the earlier value, in JSON.parse as in Go: so does this.
        objects = { start: i, end: -1, count: 0, commas: [] };
        objectsArrays++;
        inObjects = true;
        index = 0;
      } else if (
        depth === 5 &&
        inObjects &&
        c === 123 &&
        text.charCodeAt(itemStart) === 123 &&
        isKey(text, keyStart, keyEnd, "metadata")
      ) {
        metadataStart = i;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (depth === ITEM_DEPTH) {
        if (inObjects && i + 1 - itemStart > candidateLength && objects!.oversized === undefined) {
          const bytes = utf8Length(text, itemStart, i + 1);
          if (bytes > itemLimitBytes) {
            const metadata = metadataEnd > metadataStart ? { start: metadataStart, end: metadataEnd } : undefined;
            objects!.oversized = { index, bytes, ...(metadata ? { metadata } : {}) };
          }
        }
      } else if (depth === 5) {
        if (metadataStart > metadataEnd) metadataEnd = i + 1;
      } else if (depth === 3 && inObjects) {
        inObjects = false;
        // Closed by `}`, the body is not JSON: left unclosed, so the body is parsed whole and said
        // to be broken where it breaks (the envelope is decoded with this span cut out, unseen).
        if (c === 93) {
          objects!.end = i;
          objects!.count = index > 0 || !blank(text, objects!.start + 1, i) ? index + 1 : 0;
        }
      } else if (depth === 2) {
        inRequest = false;
      }
      depth--;
    } else if (c === 44 /* , */) {
      separators++;
      if (depth === 3 && inObjects) {
        if (++index < itemsPlaced) objects!.commas.push(i);
        else if (index === itemsPlaced) objects!.commas = [];
      }
    } else if (c === 58 /* : */) {
      separators++;
    } else if (c === 101 /* e */ || c === 69 /* E */) {
      // An exponent of three digits or more (`1e400`, `1e-400`) may leave a double's range.
      let j = i + 1;
      const sign = text.charCodeAt(j);
      if (sign === 43 || sign === 45) j++;
      if (isDigit(text.charCodeAt(j)) && isDigit(text.charCodeAt(j + 1)) && isDigit(text.charCodeAt(j + 2)))
        carefulNumbers = true;
    }
    i++;
  }
  // Written out twice rather than in a closure, which would move the loop's variables off the stack.
  return {
    depth: max,
    carefulNumbers,
    objectsArrays,
    protoKey,
    containers,
    separators,
    ...(objects ? { objects } : {}),
  };
}

/**
 * Whether the JSON string from the quote at `open` to the one at `close` reads `__proto__`:
 * each of its characters plain or as a `\u` escape, the only escape that spells them. Read by
 * hand, without building a string: a body of many strings starting with `_` costs a few
 * comparisons each.
 */
function readsProto(text: string, open: number, close: number): boolean {
  let at = open + 1;
  for (let k = 0; k < PROTO.length; k++) {
    const want = PROTO.charCodeAt(k);
    const c = text.charCodeAt(at);
    if (c === want) {
      at++;
      continue;
    }
    if (c !== 92 /* \ */ || text.charCodeAt(at + 1) !== 117 /* u */ || hexAt(text, at + 2) !== want) return false;
    at += 6;
  }
  return at === close;
}

const PROTO = "__proto__";

/** The four hex digits at `at` as a number, or -1. */
function hexAt(text: string, at: number): number {
  let value = 0;
  for (let k = at; k < at + 4; k++) {
    const c = text.charCodeAt(k);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Whether the string between `start` and `end` (its quotes excluded) is `key`, spelled plainly. */
function isKey(text: string, start: number, end: number, key: string): boolean {
  return end - start === key.length && text.startsWith(key, start);
}

function blank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}
