import { parse as losslessParse, stringify as losslessStringify } from "lossless-json";

/**
 * JSON with int64 safety. CRDs may hold int64 fields, and `JSON.parse` silently rounds
 * integers beyond ±2^53. Every safe integer has at most 15 digits, so a body without a
 * run of 16 digits takes the native parser; the rare other body goes through lossless-json,
 * which hands unsafe integers over as `bigint` and prints them back byte-exact.
 */

/** A parsed document and whether it may hold `bigint` values. */
export interface Decoded {
  value: unknown;
  lossless: boolean;
}

// Spelled out: V8's regex engine skips ahead on a literal sequence, ten times faster than \d{16}.
const MAYBE_UNSAFE_INTEGER = /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d/;

export class JsonError extends Error {}

/** Whether a run of 16 digits appears anywhere, strings included: an int64 may need exact parsing. */
export function mayHoldUnsafeInteger(text: string): boolean {
  return MAYBE_UNSAFE_INTEGER.test(text);
}

/**
 * `longNumber`: what a scan of the text already knows (protocol/shape.ts), so the pre-scan
 * need not run again; without it, the regular expression decides.
 */
export function decodeJson(text: string, longNumber?: boolean): Decoded {
  if (!(longNumber ?? mayHoldUnsafeInteger(text))) {
    try {
      return { value: JSON.parse(text), lossless: false };
    } catch (error) {
      throw new JsonError(`body is not valid JSON: ${(error as Error).message}`);
    }
  }
  try {
    const value = losslessParse(text, null, {
      parseNumber: parseNumberExactly,
      // Last key wins, as in JSON.parse and in the apiserver's Go decoder.
      onDuplicateKey: ({ newValue }) => newValue,
    });
    return { value, lossless: true };
  } catch (error) {
    if (error instanceof RangeError) throw new JsonError("body is nested too deeply");
    throw new JsonError(`body is not valid JSON: ${(error as Error).message}`);
  }
}

function parseNumberExactly(text: string): number | bigint {
  const n = Number(text);
  if (Number.isSafeInteger(n) || !/^-?\d+$/.test(text)) return n;
  return BigInt(text);
}

/**
 * Serializes a reply. `bigint` only appears after a lossless decode, or if a converter
 * produced one; both cases use the lossless printer.
 */
export function encodeJson(value: unknown, lossless = false): string {
  if (!lossless) {
    try {
      return JSON.stringify(value);
    } catch (error) {
      if (!(error instanceof TypeError && /BigInt/i.test(error.message))) throw error;
    }
  }
  const text = losslessStringify(value);
  if (text === undefined) throw new TypeError("value cannot be serialized to JSON");
  return text;
}
