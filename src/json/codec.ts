import { stringifyWithBigInts } from "./bigints";
import { CAREFUL_NUMBER, markNumbers, type Rewritten, restoreNumbers } from "./numbers";
import { printJson } from "./print";
import { putBackRounded } from "./rounded";
import { findSyntaxError } from "./syntax";
import { type TreeShape, treeShape } from "./tree-shape";

export { OutOfRange } from "./numbers";

/**
 * JSON that changes no value. `JSON.parse` rounds integers beyond ±2^53 (CRDs may hold int64
 * fields) and turns numbers beyond a double's range into Infinity or 0. Both need a run of 16
 * digits or an exponent of three digits, so a body without either takes the native parser
 * alone. The rare other body is parsed natively too and its rounded integers put back as
 * `bigint` (rounded.ts; printed back byte-exact); where that cannot be sure, or
 * a number is beyond a double's range (refused or marked), numbers.ts reads it.
 * Nothing here recurses: the apiserver sends objects nested up to 10,000 levels.
 */

/** A parsed document; `lossless`: it may hold `bigint` values; `outOfRange`: it holds `OutOfRange` marks. */
export interface Decoded {
  value: unknown;
  lossless: boolean;
  outOfRange: boolean;
}

export interface DecodeOptions {
  /** What a scan of the text already knows (body-scan.ts); without it, regular expressions decide. */
  carefulNumbers?: boolean;
  /**
   * A number beyond a double's range: a JsonError (the default), or an `OutOfRange` in its
   * place, for a caller that names the object holding it.
   */
  outOfRange?: "refuse" | "mark";
}

export class JsonError extends Error {}

/**
 * Whether the text may hold a number JSON.parse would change: a run of 16 digits, or a long
 * exponent, anywhere, strings included.
 */
function mayHoldCarefulNumber(text: string): boolean {
  return CAREFUL_NUMBER.test(text);
}

/**
 * `decodeJson` of text long enough that its tree is walked anyway, and that walk's `treeShape`.
 * Parsed natively and walked first: JSON.parse changes only integers beyond ±2^53
 * (rounded to doubles of magnitude 2^53 or more) and numbers beyond a double's range (0 or
 * ±Infinity), so a tree without a number of those values holds none that needs care, and the
 * text is not searched at all. Otherwise only a run of 16 digits is looked for (less than the search
 * for both kinds of careful numbers), and the tree read carefully if the text holds one; without
 * one, only a 0 or a number not finite has the text searched for a long exponent, and read
 * carefully if it holds one. The shape's depth and `__proto__` keys are the decoded tree's,
 * its numbers those JSON.parse made (which the decoded tree may hold otherwise).
 */
export function decodeWithShape(text: string, options: DecodeOptions = {}): { decoded: Decoded; shape: TreeShape } {
  const tree = parse(text);
  const shape = treeShape(tree);
  const plain: Decoded = { value: tree, lossless: false, outOfRange: false };
  if (!shape.largeNumber && !shape.edgeNumber) return { decoded: plain, shape };
  if (!SIXTEEN_DIGITS.test(text) && !(shape.edgeNumber && mayHoldCarefulNumber(text))) return { decoded: plain, shape };
  const decoded = decodeCarefully(text, tree, options);
  // A mark in a number's place is an object, a level deeper; `bigint`s are not.
  if (decoded.outOfRange) shape.depth = treeShape(decoded.value).depth;
  return { decoded, shape };
}

// Spelled out, as CAREFUL_NUMBER's (numbers.ts says why).
const SIXTEEN_DIGITS = /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d/;

export function decodeJson(text: string, options: DecodeOptions = {}): Decoded {
  if (!(options.carefulNumbers ?? mayHoldCarefulNumber(text)))
    return { value: parse(text), lossless: false, outOfRange: false };
  return decodeCarefully(text, parse(text), options);
}

/** `decodeJson` of a text that may hold careful numbers, given `tree`, what JSON.parse made of it (put back in place). */
function decodeCarefully(text: string, tree: unknown, options: DecodeOptions): Decoded {
  // The text as it is, its rounded integers put back (rounded.ts); the markers where that cannot be sure.
  const rounded = putBackRounded(text, tree);
  if (rounded) return { ...rounded, outOfRange: false };
  const read = readMarked(text);
  if (!read) return { value: parse(text), lossless: false, outOfRange: false };
  const { parsed, marked } = read;
  const restored = restoreNumbers(parsed, marked);
  if (restored.outOfRange && options.outOfRange !== "mark")
    throw new JsonError(`body holds a number beyond the range of a 64-bit float at position ${marked.firstOutOfRange}`);
  return {
    value: restored.value,
    lossless: restored.bigints,
    outOfRange: restored.outOfRange,
  };
}

/**
 * The text parsed with its careful numbers marked, or undefined if it holds none. Marked first
 * without knowing where strings are, which is exact unless a long number stands in a string
 * (the marked text then fails to parse, numbers.ts says why); then again, exactly.
 */
function readMarked(text: string): { parsed: unknown; marked: Rewritten } | undefined {
  const guessed = markNumbers(text);
  if (!guessed) return undefined; // none anywhere, so none outside strings
  try {
    return { parsed: JSON.parse(guessed.text), marked: guessed };
  } catch {
    // A number in a string was marked too, or the text is broken: marked exactly below.
  }
  const marked = markNumbers(text, true);
  if (!marked) return undefined;
  try {
    return { parsed: JSON.parse(marked.text), marked };
  } catch {
    parse(text); // the original's error, at its position
    throw new JsonError("body is not valid JSON");
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error: say where and what, nothing of the content.
    throw new JsonError(syntaxErrorMessage(text) ?? "body is not valid JSON");
  }
}

/** Why the text is not JSON, in words that quote nothing of it; undefined if it is JSON. Builds no tree. */
export function syntaxErrorMessage(text: string): string | undefined {
  const error = findSyntaxError(text);
  return error && `body is not valid JSON: ${error.problem} at position ${error.position}`;
}

/**
 * Serializes a reply: natively, printing any `bigint` (after a lossless decode, or from a
 * converter) as the integer it is; iteratively, to the same text, where the value nests
 * deeper than V8's JSON.stringify does well. `deep`: the value is known to, so JSON.stringify
 * is not tried at all.
 */
export function encodeJson(value: unknown, lossless = false, deep = false): string {
  if (!deep) {
    try {
      return lossless ? stringifyWithBigInts(value) : JSON.stringify(value);
    } catch (error) {
      const bigint = error instanceof TypeError && /BigInt/i.test(error.message);
      if (bigint && !lossless) return encodeJson(value, true);
      // Still a bigint: one boxed in an object, past the replacer where BigInt.prototype is
      // frozen (bigints.ts); the printer unboxes it.
      if (!bigint && !(error instanceof RangeError)) throw error;
    }
  }
  const text = printJson(value);
  if (text === undefined) throw new TypeError("value cannot be serialized to JSON");
  return text;
}
