import { stringEnd } from "./json-string-end";

/**
 * The numbers JSON.parse would change: integers beyond ±2^53 (rounded), and numbers beyond a
 * double's range (`1e400` becomes Infinity, printed `null`; `1e-400` becomes 0). The text is
 * read once for them; each is replaced by a marker string, the text parsed natively (at any
 * depth, at native speed), and the markers swapped for their values in one iterative walk:
 * a `bigint` for an integer, an `OutOfRange` for a number no double can hold.
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
 * `text` with every number JSON.parse would change replaced by a marker, or undefined if it
 * holds none. Only values are replaced, never what stands where a property name belongs, and
 * only well-formed numbers: the replacement leaves a broken text broken, so JSON.parse still
 * refuses what it would refuse.
 */
export function markNumbers(text: string): Rewritten | undefined {
  const values: Array<bigint | OutOfRange> = [];
  const escapedPrefix = `\\u0001${processTag()}:`;
  let out = "";
  let copied = 0;
  let firstOutOfRange = -1;
  // Containers open, innermost last (true: an object), and the last character that was not
  // space: a number right after `{`, or after `,` in an object, stands where a name belongs.
  const inObject: boolean[] = [];
  let previous = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      if (end < 0) return undefined; // never closed: JSON.parse will say so
      i = end + 1;
      previous = c;
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      i++;
      while (i < n && isNumberCharacter(text.charCodeAt(i))) i++;
      const atName = previous === 123 || (previous === 44 && inObject[inObject.length - 1] === true);
      previous = 48;
      if (atName || (i - start < 16 && !hasExponent(text, start, i))) continue;
      const token = text.slice(start, i);
      const value = changedValue(token);
      if (value === undefined) continue;
      if (value instanceof OutOfRange && firstOutOfRange < 0) firstOutOfRange = start;
      out += `${text.slice(copied, start)}"${escapedPrefix}${values.length}"`;
      copied = i;
      values.push(value);
      continue;
    }
    if (c === 123 || c === 91) inObject.push(c === 123);
    else if (c === 125 || c === 93) inObject.pop();
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) previous = c;
    i++;
  }
  if (values.length === 0) return undefined;
  return { text: out + text.slice(copied), values, firstOutOfRange };
}

/** What a well-formed number token must become instead of JSON.parse's double, if anything. */
function changedValue(token: string): bigint | OutOfRange | undefined {
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
 * Puts each marker's value in its place, in the tree JSON.parse made of `markNumbers`' text.
 * Iterative, as the tree may be as deep as the text.
 */
export function restoreNumbers(root: unknown, marked: Rewritten): unknown {
  const { values } = marked;
  // Every marker string once parsed; the tag is random, so no string of a body can pose as one.
  const prefix = `\u0001${processTag()}:`;
  const restore = (value: unknown): unknown =>
    typeof value === "string" && value.charCodeAt(0) === 1 && value.startsWith(prefix)
      ? values[Number(value.slice(prefix.length))]
      : value;
  const top = restore(root);
  if (typeof top !== "object" || top === null || top instanceof OutOfRange) return top;
  const pending: object[] = [top];
  while (pending.length > 0) {
    const holder = pending.pop() as Record<string, unknown>;
    if (Array.isArray(holder)) {
      for (let i = 0; i < holder.length; i++) {
        const item: unknown = holder[i];
        if (typeof item === "object" && item !== null) pending.push(item);
        else if (typeof item === "string") holder[i] = restore(item);
      }
    } else {
      for (const key of Object.keys(holder)) {
        const item = holder[key];
        if (typeof item === "object" && item !== null) pending.push(item);
        else if (typeof item === "string") {
          const value = restore(item);
          if (value === item) continue;
          // A key is data, `__proto__` too: set it as JSON.parse did, never as a prototype.
          if (key === "__proto__")
            Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
          else holder[key] = value;
        }
      }
    }
  }
  return top;
}

function isNumberCharacter(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

function hasExponent(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 101 || c === 69) return true;
  }
  return false;
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
