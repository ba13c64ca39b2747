import { processTag } from "./numbers";
import { stringifySwapped } from "./raw-swap";

/**
 * JSON.stringify, with each `bigint` written as its digits, in one of two spellings that give
 * the same text: where the runtime has `JSON.rawJSON` (Node 21+, workerd), JSON.stringify
 * writes the digits it is handed as they are; elsewhere (Node 20) each bigint becomes a string
 * marked with a random tag, and the text then loses those strings' quotes.
 *
 * With JSON.rawJSON, a small value has its bigints swapped for raw JSON in place for the call
 * (raw-swap.ts); a larger one, or one that is not plain data, goes through
 * `stringifyWithPrototype`.
 */
export function stringifyWithBigInts(value: unknown, spelling: BigIntSpelling = BIGINT_SPELLING): string {
  if (spelling === "raw-json" && rawJson) {
    const text = stringifySwapped(value, rawJson);
    if (text !== undefined) return text;
  }
  return stringifyWithPrototype(value, spelling);
}

/**
 * JSON.stringify asks `BigInt.prototype.toJSON` for what to print in a bigint's place: it is
 * set for the time of the call. A replacer function would do the same without touching a
 * prototype, but JSON.stringify calls it for every value, which slows the whole call down;
 * toJSON is asked for by bigints alone. The call is synchronous: the only code that can see the
 * method is a toJSON or a getter inside `value` itself.
 */
export function stringifyWithPrototype(value: unknown, spelling: BigIntSpelling = BIGINT_SPELLING): string {
  if (spelling === "raw-json" && !rawJson) throw new Error("JSON.rawJSON is not available in this runtime");
  const prototype = BigInt.prototype as { toJSON?: unknown };
  const own = Object.getOwnPropertyDescriptor(prototype, "toJSON");
  try {
    const toJSON = spelling === "raw-json" ? rawToJSON : markedToJSON;
    Object.defineProperty(prototype, "toJSON", { value: toJSON, writable: true, configurable: true });
  } catch {
    // A frozen BigInt.prototype (a hardened realm), or a toJSON made permanent there.
    return stringifyWithReplacer(value, spelling);
  }
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    if (own) Object.defineProperty(prototype, "toJSON", own);
    else delete prototype.toJSON;
  }
  return spelling === "raw-json" ? text : unmark(text);
}

/** The same text through a replacer function: where BigInt.prototype cannot take a toJSON. */
export function stringifyWithReplacer(value: unknown, spelling: BigIntSpelling = BIGINT_SPELLING): string {
  if (spelling === "raw-json" && !rawJson) throw new Error("JSON.rawJSON is not available in this runtime");
  const replacer =
    spelling === "raw-json"
      ? (_key: string, item: unknown) => (typeof item === "bigint" ? rawJson!(bigintDigits.call(item)) : item)
      : (_key: string, item: unknown) => (typeof item === "bigint" ? `${mark()}${bigintDigits.call(item)}` : item);
  const text = JSON.stringify(value, replacer);
  return spelling === "raw-json" ? text : unmark(text);
}

/** How a bigint reaches the text: `JSON.rawJSON`'s digits, or a marked string unquoted after. */
export type BigIntSpelling = "raw-json" | "marked";

type RawJson = (text: string) => unknown;

/** JSON.rawJSON, where present and doing what it should (decided once, at load). */
const rawJson = ((): RawJson | undefined => {
  const raw = (JSON as { rawJSON?: RawJson }).rawJSON;
  if (typeof raw !== "function") return undefined;
  try {
    return JSON.stringify([raw("-12345678901234567890")]) === "[-12345678901234567890]" ? raw : undefined;
  } catch {
    return undefined;
  }
})();

/** This runtime's spelling: `raw-json` where JSON.rawJSON is present. */
export const BIGINT_SPELLING: BigIntSpelling = rawJson ? "raw-json" : "marked";

// Taken once: a later change to BigInt.prototype.toString cannot change what is printed.
const bigintDigits = BigInt.prototype.toString as (this: unknown) => string;

// `this`: the bigint, or a BigInt object boxing one (which JSON.stringify also asks). The last
// one's raw JSON is kept: objects of one kind often hold the same integer (a default, a
// maximum), and building it (digits, then JSON.rawJSON, which parses them) is most of the cost.
let lastBigInt: unknown;
let lastRaw: unknown;
function rawToJSON(this: unknown): unknown {
  if (typeof this !== "bigint") return rawJson!(bigintDigits.call(this));
  if (this !== lastBigInt) {
    lastRaw = rawJson!(bigintDigits.call(this));
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a bigint: a value, kept to compare the next with
    lastBigInt = this;
  }
  return lastRaw;
}

function markedToJSON(this: unknown): string {
  return `${mark()}${bigintDigits.call(this)}`;
}

let bigintMark: string | undefined;
let markedBigInt: RegExp | undefined;

function mark(): string {
  bigintMark ??= `bigint-${processTag()}:`;
  return bigintMark;
}

// Typed as JSON.stringify is: `undefined` comes back for a value JSON cannot hold.
function unmark(text: string): string {
  if (text === undefined || !text.includes(mark())) return text;
  markedBigInt ??= new RegExp(`"${mark()}(-?\\d+)"`, "g");
  return text.replace(markedBigInt, "$1");
}
