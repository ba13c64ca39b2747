import fc from "fast-check";
import { parse as losslessParse, stringify as losslessStringify } from "lossless-json";
import { decodeJson, encodeJson } from "../../src/json/codec";
import { markNumbers, restoreNumbers } from "../../src/json/numbers";

/**
 * JSON texts built to break the number marker, which puts markers in the text before knowing
 * whether a digit run stands in a string (src/json/numbers.ts): integers beyond 2^53
 * as values and long digit runs in strings and names, written raw (escapes as a client may
 * write them: `\"`, `\\`, `\u0022`, `\u005c`, a `\u` escape whose hex digits run into the
 * digits), next to the marker's own characters, at both ends of strings, several per string,
 * and JSON in a string as kubectl's last-applied-configuration annotation holds it. Shared by
 * the tests on Node 20, the Lambda runtime's Node 22 and workerd: nothing here needs Node.
 */

// Integers that other spellings in the same document make the same double of (RESPELLED).
const POOL = fc.constantFrom(
  2n ** 53n,
  2n ** 53n + 1n,
  10n ** 16n,
  -(10n ** 16n),
  10n ** 20n,
  2n ** 63n - 1n,
  2n ** 63n,
);

const BIG_INTEGER = fc
  .oneof(
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n }),
    fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
    fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, -(2n ** 63n), 2n ** 63n - 1n),
    POOL,
  )
  .map(String);

/**
 * An integer of POOL spelled with an exponent (`9.007199254740993e15`, `9007199.254740993E+9`,
 * `1e20`): JSON.parse reads the same double as from the integer's digits, and it must stay a
 * double where the digits become a bigint.
 */
const RESPELLED = fc
  .tuple(POOL, fc.integer({ min: 1, max: 8 }), fc.constantFrom("e", "E", "e+", "E+"))
  .map(([integer, kept, e]) => {
    const digits = String(integer < 0n ? -integer : integer);
    const fraction = digits.slice(kept).replace(/0+$/, "");
    return `${integer < 0n ? "-" : ""}${digits.slice(0, kept)}${fraction ? `.${fraction}` : ""}${e}${digits.length - kept}`;
  });

// Spellings JSON.parse reads as a double, long and signed ones included.
const DOUBLE = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom("-0", "-0.0", "0e400", "1E+2", "-1.5e-300", "12345678901234567890e0", "-12345678901234567890.5"),
  fc.constantFrom("1.7976931348623157e308", "5e-324", "123456789012345678901234567890e-10", "-9007199254740993.0"),
  RESPELLED,
);

/** A run of digits a scan of the text takes for a number JSON.parse may change. */
const DIGITS = fc.oneof(
  BIG_INTEGER,
  fc.constantFrom("1e400", "-1E-400", "9c1e-000000000001", "0000000000000000000", "12345678901234567890:"),
  DOUBLE,
);

/** Raw pieces of a JSON string's content, each valid there alone, that may end or start a digit run. */
const STRING_PIECE = fc.oneof(
  { weight: 4, arbitrary: DIGITS },
  // A \u escape whose hex digits run on into a long run of digits.
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("\\u", "\\u0", "\\u00", "\\u1e", "\\uAB", "\\uABC", "\\u005c"),
        fc.bigInt(10n ** 20n, 10n ** 30n),
      )
      .map(([escape, digits]) => `${escape}${digits}`),
  },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      ...["\\\\", '\\"', '\\":', '\\": ', "\\u0022", "\\u0022:", "\\u005c", "\\u005C\\u0022", "\\/", "\\n"],
      ...["\\u0001", "\\uABCD", "\\ud83d\\ude00", "bigint-", "x", ":", ": ", ",", "{", "}", "[", "]", " ", "e", "E"],
      ...["-", "+", ".", "u", "'", "é"],
    ),
  },
);

const stringContent = fc.array(STRING_PIECE, { maxLength: 6 }).map((pieces) => pieces.join(""));

/** A JSON string token, raw: its text as a client may write it. */
export const hostileStringToken: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: stringContent.map((content) => `"${content}"`) },
  { weight: 1, arbitrary: fc.string().map((s) => JSON.stringify(s)) },
);

const space = fc.constantFrom("", "", "", " ", "\n", "\t", "\r\n  ");

/** A JSON text full of the above; `text` may hold JSON in a string (that is the `inner` choice). */
export const hostileDocument: fc.Arbitrary<string> = fc.letrec<{ value: string; inner: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    BIG_INTEGER,
    BIG_INTEGER,
    DOUBLE,
    fc.constantFrom("1e400", "-1E-400"),
    hostileStringToken,
    hostileStringToken,
    fc.constantFrom("true", "false", "null"),
    tie("inner"),
    fc
      .tuple(fc.array(fc.tuple(space, tie("value"), space), { maxLength: 5 }), space)
      .map(([items, end]) => `[${items.map(([before, item, after]) => `${before}${item}${after}`).join(",") || end}]`),
    fc
      .tuple(fc.array(fc.tuple(hostileStringToken, tie("value"), space), { maxLength: 5 }), space)
      .map(([members, end]) => `{${members.map(([k, v, s]) => `${s}${k}${s}:${s}${v}${s}`).join(",") || end}}`),
  ),
  // JSON written into a string, as kubectl's last-applied-configuration annotation holds it.
  inner: tie("value").map((text) => JSON.stringify(`${text}\n`)),
})).value;

export const hostileDocuments = fc.tuple(space, hostileDocument, space).map(([a, d, b]) => `${a}${d}${b}`);

/** Integers beyond 2^53 as bigint, any other number as JSON.parse reads it. */
const exactly = (text: string): number | bigint =>
  Number.isSafeInteger(Number(text)) || !/^-?\d+$/.test(text) ? Number(text) : BigInt(text);

/** What lossless-json reads from `text` and writes back, the last of repeated keys kept as JSON.parse does. */
export function losslessJsonText(text: string): string {
  return losslessStringify(
    losslessParse(text, null, { parseNumber: exactly, onDuplicateKey: ({ newValue }) => newValue }),
  )!;
}

/**
 * What JSON.parse's source text access reads from `text`, written back by crdshift's printer:
 * each integer beyond 2^53 from its own digits. Undefined where the runtime has none (Node 20).
 */
export function sourceTextJsonText(text: string): string | undefined {
  if (!HAS_SOURCE_TEXT) return undefined;
  const value: unknown = JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === "number" && context?.source !== undefined ? exactly(context.source) : value,
  );
  return encodeJson(value, true);
}

/** Whether this runtime's JSON.parse hands a reviver each value's source text (Node 21+, workerd). */
export const HAS_SOURCE_TEXT = ((): boolean => {
  let source: unknown;
  JSON.parse("1", (_key, value, context?: { source?: string }) => ((source = context?.source), value));
  return source === "1";
})();

/**
 * Numbers beyond a double's range in the document (1e400, 1e-400): those are refused. One under
 * a repeated key is not in it (the last value stands, as for JSON.parse), and is not refused.
 */
export function holdsOutOfRange(text: string): boolean {
  const outOfRange = {};
  const root: unknown = losslessParse(text, null, {
    onDuplicateKey: ({ newValue }) => newValue,
    parseNumber: (token) => {
      const double = Number(token);
      const beyond = !Number.isFinite(double) || (double === 0 && /[1-9]/.test(token.replace(/[eE].*$/, "")));
      return beyond ? outOfRange : 0;
    },
  });
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === outOfRange) return true;
    if (typeof value === "object" && value !== null) pending.push(...Object.values(value));
  }
  return false;
}

/**
 * Where crdshift's reading of `text` strays, or undefined: the text it writes back must be
 * lossless-json's (and, where the runtime has source text access, what that reads), and the
 * marker's first guess, where its text parses, must read as the exact marking does.
 */
export function strays(text: string): string | undefined {
  if (holdsOutOfRange(text)) {
    try {
      decodeJson(text);
      return `${text}: read, though it holds a number beyond a double's range`;
    } catch {
      return undefined;
    }
  }
  const reference = losslessJsonText(text);
  const { value, lossless } = decodeJson(text);
  const written = encodeJson(value, lossless);
  if (written !== reference) return `${text}: crdshift wrote ${written}, lossless-json ${reference}`;
  if (HAS_SOURCE_TEXT) {
    const source = sourceTextJsonText(text);
    if (source !== reference) return `${text}: source text access gave ${source}, lossless-json ${reference}`;
  }
  const guessed = markNumbers(text);
  if (guessed) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(guessed.text);
    } catch {
      return undefined; // the exact marking reads it, checked above
    }
    const fromGuess = encodeJson(restoreNumbers(parsed, guessed).value, true);
    const exact = markNumbers(text, true);
    const fromExact = exact
      ? encodeJson(restoreNumbers(JSON.parse(exact.text), exact).value, true)
      : JSON.stringify(JSON.parse(text));
    if (fromGuess !== fromExact || fromGuess !== reference)
      return `${text}: the first guess parsed as ${fromGuess}, the exact marking as ${fromExact}`;
  }
  return undefined;
}

/** fast-check's property: crdshift reads every hostile document as lossless-json does. */
export const readsAsLosslessJson = fc.property(hostileDocuments, (text) => {
  const problem = strays(text);
  if (problem) throw new Error(problem);
});
