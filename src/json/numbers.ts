import { replaceLeaves } from "./tree-leaves";
import { stringEnd } from "./string-end";

/**
 * The numbers JSON.parse would change: integers beyond ±2^53 (rounded), and numbers beyond a
 * double's range (`1e400` becomes Infinity, printed `null`; `1e-400` becomes 0). Each is
 * replaced in the text by a marker string, the text parsed natively (at any depth, at native
 * speed), and the markers swapped for their values in one iterative walk: a `bigint` for an
 * integer, an `OutOfRange` for a number no double can hold. Bodies whose only such numbers are
 * integers, each double made by one spelling, are read by rounded.ts instead, without a
 * marked copy of the text; these markers read the rest. JSON.parse's reviver could hand
 * over each number's source text instead (Node 21+, workerd), but calling it for every value
 * slows a parse down several times more than marking does (docs/performance.md: Integers
 * beyond 2^53, `npm run bench -- --only=int64`).
 */

/** Stands in the tree for a number beyond a double's range: no JavaScript value holds it. */
export class OutOfRange {
  /** Which way it left the range: to infinity, or to zero. */
  constructor(readonly overflow: boolean) {}
}

export interface Rewritten {
  text: string;
  /** What each marker stands for, by its number. */
  values: Array<bigint | OutOfRange>;
  /** Where in the original text the first out-of-range number starts, or -1. */
  firstOutOfRange: number;
}

const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NONZERO_DIGIT = /[1-9]/;

/**
 * Where a number JSON.parse may change shows: a run of sixteen digits (every integer beyond
 * ±2^53 has one), or a digit, an exponent of three digits or more and what may follow a number
 * (a number beyond a double's range needs that exponent or a run of sixteen digits; what
 * follows rules out ids such as `9c1e-000000000001`). The digits spelled out: V8's regex
 * engine skips ahead on a fixed run of them, far faster than on \d{15}.
 */
export const CAREFUL_NUMBER = /\d(?:\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d|[eE][+-]?\d\d\d+(?:[,}\]\s]|$))/;

// One for every call: nothing runs between a reset of its lastIndex and the last match.
const CANDIDATE = new RegExp(CAREFUL_NUMBER, "g");
// Starts with a backslash, which JSON allows only inside a string: see markNumbers.
let escapedPrefix: string | undefined;

/**
 * `text` with every number JSON.parse would change replaced by a marker, or undefined if it
 * holds none. A regular expression finds where such a number may be; only well-formed numbers
 * are replaced, and never one followed by a colon (where a property name belongs): anywhere
 * else a string is as wrong as the number it replaces, so JSON.parse still refuses what it
 * would refuse.
 *
 * Whether a number stands in a string is not looked for (`exact` false) or known (`exact`,
 * every string before it skipped quote to quote, which costs much of a parse on text dense with
 * strings). Not looked for, a number in a string is replaced all the same: the marker's opening
 * quote then ends that string (a digit never follows an escaping backslash, so that quote is
 * never escaped), and the backslash the marker starts with stands outside any string, where
 * JSON allows none. So the marked text parses only if every number replaced stood outside
 * strings, and a caller that sees it fail to parse asks again with `exact`. A number that what
 * stands before it shows in a string is left alone, which spares that second pass.
 */
export function markNumbers(text: string, exact = false): Rewritten | undefined {
  const values: Array<bigint | OutOfRange> = [];
  escapedPrefix ??= `\\u0001${processTag()}:`;
  let out = "";
  let copied = 0;
  let firstOutOfRange = -1;
  // The next string's opening quote: strings before it have been skipped.
  let quote = exact ? text.indexOf('"') : -1;
  const candidate = CANDIDATE;
  candidate.lastIndex = 0;
  for (let found = candidate.exec(text); found !== null; found = candidate.exec(text)) {
    const at = found.index;
    let inString = false;
    while (quote >= 0 && quote < at) {
      const end = stringEnd(text, quote);
      if (end < 0) return undefined; // never closed: JSON.parse will say so
      quote = text.indexOf('"', end + 1);
      if (end > at) {
        inString = true;
        candidate.lastIndex = end + 1;
        break;
      }
    }
    if (inString) continue;
    let start = at;
    while (start > 0 && isNumberCharacter(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end++;
    candidate.lastIndex = end;
    if (text.charCodeAt(afterSpace(text, end)) === 58 /* : */ || (!exact && escapedBefore(text, start))) continue;
    const value = changedValue(text.slice(start, end));
    if (value === undefined) continue;
    if (value instanceof OutOfRange && firstOutOfRange < 0) firstOutOfRange = start;
    out += `${text.slice(copied, start)}"${escapedPrefix}${values.length}"`;
    copied = end;
    values.push(value);
  }
  if (values.length === 0) return undefined;
  return { text: out + text.slice(copied), values, firstOutOfRange };
}

/**
 * Whether what stands before the number at `start` shows it inside a string: a backslash right
 * before it (JSON allows none outside strings), or, before a colon, an escaped quote (JSON
 * written in a string, such as a last-applied-configuration annotation). Only where this is
 * sure: a number it passes over outside a string would be read rounded.
 */
export function escapedBefore(text: string, start: number): boolean {
  let i = start - 1;
  if (text.charCodeAt(i) === 92 /* \ */) return true;
  while (isSpace(text.charCodeAt(i))) i--;
  if (text.charCodeAt(i) !== 58 /* : */) return false;
  i--;
  while (isSpace(text.charCodeAt(i))) i--;
  if (text.charCodeAt(i) !== 34 /* " */) return false;
  let slashes = 0;
  while (text.charCodeAt(i - 1 - slashes) === 92) slashes++;
  return (slashes & 1) === 1;
}

/** What a well-formed number token must become instead of JSON.parse's double, if anything. */
export function changedValue(token: string): bigint | OutOfRange | undefined {
  if (INTEGER.test(token)) {
    return Number.isSafeInteger(Number(token)) ? undefined : BigInt(token);
  }
  if (!NUMBER.test(token)) return undefined;
  const double = Number(token);
  if (!Number.isFinite(double)) return new OutOfRange(true);
  if (double === 0) {
    const exponent = token.search(/[eE]/);
    if (NONZERO_DIGIT.test(exponent < 0 ? token : token.slice(0, exponent))) return new OutOfRange(false);
  }
  return undefined;
}

/**
 * Puts each marker's value in its place, in the tree JSON.parse made of `markNumbers`' text,
 * and says whether an `OutOfRange` or a `bigint` is among those placed: one under a repeated key
 * is not, and the body is then as if it never held it (as a parse first, which never sees it,
 * finds: codec.ts).
 */
export function restoreNumbers(
  root: unknown,
  marked: Rewritten,
): { value: unknown; outOfRange: boolean; bigints: boolean } {
  const { values } = marked;
  // Every marker string once parsed; the tag is random, so no string of a body can pose as one.
  const prefix = `\u0001${processTag()}:`;
  let outOfRange = false;
  let bigints = false;
  const valueOf = (text: string): unknown => {
    if (text.charCodeAt(0) !== 1 || !text.startsWith(prefix)) return undefined;
    const value = values[Number(text.slice(prefix.length))];
    if (typeof value === "bigint") bigints = true;
    else outOfRange ||= value instanceof OutOfRange;
    return value;
  };
  // Each marker is in the tree once at most: none left, done.
  const put = replaceLeaves(root, "string", valueOf, values.length)!;
  return { value: put.value, outOfRange, bigints };
}

export function isNumberCharacter(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

export function afterSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

let tag: string | undefined;

/**
 * Twelve random bytes in base 36, drawn once per process: markers built with it appear only
 * for the moment of a call, never in a reply, so nothing outside can learn it.
 */
export function processTag(): string {
  if (tag === undefined) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    tag = "";
    for (const byte of bytes) tag += byte.toString(36).padStart(2, "0");
  }
  return tag;
}
