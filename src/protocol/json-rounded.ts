import { afterSpace, changedValue, escapedBefore, isNumberCharacter, OutOfRange } from "./json-numbers";

/**
 * Integers beyond ±2^53 put back exact into the tree JSON.parse made of the text itself: no
 * second text to build and parse (the markers' way, json-numbers.ts, which most of their cost
 * was). JSON.parse rounds such an integer to a double of magnitude 2^53 or more, and every
 * number the text spells with that magnitude has a run of sixteen digits or an exponent, which
 * a regular expression finds. Each such spelling is noted under the double it makes; a walk of
 * the tree then swaps each double of that magnitude for the `bigint` its spelling is.
 *
 * Which number of the text a value came from is never asked: the double says it, as long as no
 * two different spellings make the same double (9223372036854775806 and 9223372036854775807
 * both make 2^63), so the order of the tree's names and keys repeated in the text cannot mislead
 * it. Where two do, or where a number is beyond a double's range (an `OutOfRange` to report),
 * the answer is undefined and the markers decide. Spellings found in strings are noted too: the
 * tree holds no number made from them, and they only make such a clash likelier.
 */
export function putBackRounded(text: string, root: unknown): { value: unknown; lossless: boolean } | undefined {
  // Each double of magnitude 2^53 or more that a number of the text makes, with its spelling.
  const spellings = new Map<number, string>();
  let integers = 0;
  let last = "";
  const candidate = MAGNITUDE;
  candidate.lastIndex = 0;
  for (let found = candidate.exec(text); found !== null; found = candidate.exec(text)) {
    const at = found.index;
    let start = at;
    while (start > 0 && isNumberCharacter(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end++;
    candidate.lastIndex = end;
    // The text is JSON (JSON.parse read it): before a colon or after a backslash, in a string.
    if (text.charCodeAt(afterSpace(text, end)) === 58 /* : */ || escapedBefore(text, start)) continue;
    const token = text.slice(start, end);
    if (token === last) {
      integers++; // an integer, noted already: the common case of the same value in every object
      continue;
    }
    const integer = INTEGER.test(token);
    if (!integer && changedValue(token) instanceof OutOfRange) return undefined;
    const double = Number(token); // NaN for what is no number: passed over
    if (!(double >= TWO_TO_53 || double <= -TWO_TO_53)) continue;
    const seen = spellings.get(double);
    if (seen === undefined) spellings.set(double, token);
    else if (seen !== token) return undefined;
    if (integer) {
      integers++;
      last = token;
    }
  }
  if (integers === 0) return { value: root, lossless: false };
  return swapRounded(root, spellings, integers);
}

/**
 * Where a number of magnitude 2^53 or more may be spelled: sixteen digits; an exponent of two
 * digits or more; or one of one digit after seven digits (below them, 10^9 times the number
 * stays short of 2^53). With a negative exponent only sixteen digits reach that magnitude, but
 * one of two digits or more may leave a double's range (`1e-400`). An exponent must be followed
 * by what may follow a number, which leaves out ids such as `9c1e52d`. The digits spelled out:
 * V8's regex engine skips ahead on a fixed run of them.
 */
const MAGNITUDE =
  /\d(?:\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d|[eE][+-]?\d\d+(?:[,}\]\s]|$)|\d\d\d\d\d\d(?:\.\d+)?[eE]\+?\d(?:[,}\]\s]|$))/g;
const INTEGER = /^-?[1-9]\d*$/;
const TWO_TO_53 = 2 ** 53;

/**
 * The walk: iterative (the tree may be as deep as the text), own names only (Object.prototype
 * may hold enumerable names, even an object holding itself), and only until as many integers
 * are in place as the text spells (in strings or under a repeated key some are not in the tree).
 */
function swapRounded(
  root: unknown,
  spellings: Map<number, string>,
  integers: number,
): { value: unknown; lossless: boolean } | undefined {
  let lastSpelling = "";
  let lastValue = 0n;
  const exact = (spelling: string): bigint => {
    if (spelling !== lastSpelling) {
      lastSpelling = spelling;
      lastValue = BigInt(spelling);
    }
    return lastValue;
  };
  // undefined: not a rounded integer; null: a double no spelling noted makes (then trust nothing).
  let lastItem = 0;
  let lastSwap: bigint | null | undefined;
  const swapFor = (item: number): bigint | null | undefined => {
    if (!(item >= TWO_TO_53 || item <= -TWO_TO_53)) return undefined;
    if (item === lastItem) return lastSwap;
    const spelling = spellings.get(item);
    lastItem = item;
    lastSwap = spelling === undefined ? null : INTEGER.test(spelling) ? exact(spelling) : undefined;
    return lastSwap;
  };
  if (typeof root === "number") {
    const swapped = swapFor(root);
    return swapped === null ? undefined : { value: swapped ?? root, lossless: swapped !== undefined };
  }
  if (typeof root !== "object" || root === null) return { value: root, lossless: false };
  let left = integers;
  let lossless = false;
  const pending: object[] = [root];
  while (pending.length > 0 && left > 0) {
    const holder = pending.pop() as Record<string, unknown>;
    if (Array.isArray(holder)) {
      // Last to first onto the stack: the first of a review's objects is looked at first.
      for (let i = holder.length - 1; i >= 0; i--) {
        const item: unknown = holder[i];
        if (typeof item === "object" && item !== null) pending.push(item);
        else if (typeof item === "number") {
          const swapped = swapFor(item);
          if (swapped === undefined) continue;
          if (swapped === null) return undefined;
          holder[i] = swapped;
          lossless = true;
          left--;
        }
      }
    } else {
      for (const key of Object.keys(holder)) {
        const item = holder[key];
        if (typeof item === "object" && item !== null) pending.push(item);
        else if (typeof item === "number") {
          const swapped = swapFor(item);
          if (swapped === undefined) continue;
          if (swapped === null) return undefined;
          lossless = true;
          left--;
          // A key is data, `__proto__` too: set it as JSON.parse did, never as a prototype.
          if (key === "__proto__")
            Object.defineProperty(holder, key, {
              value: swapped,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          else holder[key] = swapped;
        }
      }
    }
  }
  return { value: root, lossless };
}
