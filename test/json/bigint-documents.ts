import fc from "fast-check";
import { decodeJson, encodeJson } from "../../src/json/codec";
import {
  type BigIntSpelling,
  stringifyWithBigInts,
  stringifyWithPrototype,
  stringifyWithReplacer,
} from "../../src/json/bigints";
import { printJson } from "../../src/json/print";
import { stringifySwapped } from "../../src/json/raw-swap";

/**
 * JSON documents as an apiserver may send them, each with the text crdshift must write back
 * for it: integers beyond ±2^53 digit for digit, negative ones, exponents, -0, long digit runs
 * inside strings, whitespace, `__proto__`. Shared by the tests of each runtime (Node, the
 * Lambda runtime's Node, workerd): nothing here needs Node.
 */
export interface Document {
  text: string;
  /** The compact text crdshift must write for the value it reads from `text`. */
  expected: string;
}

const space = fc.constantFrom("", "", "", " ", "\n", "\t", "\r\n  ");

const integer = fc
  .oneof(
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n }),
    fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
    fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, -(2n ** 63n), 2n ** 63n - 1n),
  )
  .map((big): Document => ({ text: String(big), expected: String(big) }));

// Spellings JSON.parse reads as a double (exponents, fractions, -0): written back as JSON.stringify writes that double.
const double = fc
  .oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
    fc.constantFrom("-0", "0.0", "-0.0e5", "1E+2", "1e-7", "12345678901234567890e0", "1.2345678901234567890123"),
    fc
      .tuple(
        fc.constantFrom("", "-"),
        fc.stringMatching(/^(0|[1-9]\d{0,24})$/),
        fc.option(fc.stringMatching(/^\d{1,20}$/), { nil: undefined }),
        fc.constantFrom("e", "E"),
        fc.constantFrom("", "+", "-"),
        fc.integer({ min: 0, max: 250 }),
      )
      .map(([sign, whole, fraction, e, esign, exponent]) =>
        [sign, whole, fraction === undefined ? "" : `.${fraction}`, e, esign, exponent].join(""),
      ),
  )
  .map((token): Document => ({ text: token, expected: JSON.stringify(Number(token)) }));

// Strings that look like numbers to a text scan: long digit runs, exponents, quotes and backslashes around them.
const lookalike = fc
  .tuple(
    fc.constantFrom("", "x", '"', "\\", ":", ",", "-", "9c1e-", "\u0001"),
    fc.oneof(
      integer.map((d) => d.text),
      fc.constantFrom("1e400", "1e-400", "12345678901234567890:"),
    ),
    fc.constantFrom("", '"', "\\", ",", "]", "}", " ", "e999"),
  )
  .map((parts) => parts.join(""));
const string = fc
  .oneof(fc.string(), lookalike)
  .map((s): Document => ({ text: JSON.stringify(s), expected: JSON.stringify(s) }));

const scalar = fc.oneof(
  integer,
  integer,
  double,
  string,
  fc.constantFrom<Document>(
    { text: "true", expected: "true" },
    { text: "false", expected: "false" },
    { text: "null", expected: "null" },
  ),
);

// Keys that are no array index (V8 puts those first), `__proto__` among them; no repeats.
const key = fc.oneof(
  fc.constantFrom("__proto__", "", "a", "int64"),
  fc.string().map((s) => `k${s}`),
);

const document: fc.Arbitrary<Document> = fc.letrec<{ value: Document }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.tuple(fc.array(fc.tuple(space, tie("value"), space), { maxLength: 5 }), space).map(([items, end]): Document => ({
      text: `[${items.map(([before, item, after]) => `${before}${item.text}${after}`).join(",") || end}]`,
      expected: `[${items.map(([, item]) => item.expected).join(",")}]`,
    })),
    fc
      .tuple(fc.uniqueArray(fc.tuple(key, tie("value"), space), { maxLength: 5, selector: ([k]) => k }), space)
      .map(([members, end]): Document => ({
        text: `{${members.map(([k, v, s]) => `${s}${JSON.stringify(k)}${s}:${s}${v.text}${s}`).join(",") || end}}`,
        expected: `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v.expected}`).join(",")}}`,
      })),
  ),
})).value;

export const documents = fc.tuple(space, document, space).map(([a, d, b]) => ({ ...d, text: `${a}${d.text}${b}` }));

/** The same documents nested `levels` deep, as the apiserver allows (10,000 levels). */
export const deepDocuments = (levels: number) =>
  fc.tuple(documents, fc.integer({ min: 1, max: levels })).map(([d, depth]): Document => ({
    text: `${'{"a":['.repeat(depth >> 1)}${d.text}${"]}".repeat(depth >> 1)}`,
    expected: `${'{"a":['.repeat(depth >> 1)}${d.expected}${"]}".repeat(depth >> 1)}`,
  }));

/** Every way crdshift may print a value holding bigints in `spelling`, by name. */
export function printings(spelling: BigIntSpelling): Record<string, (value: unknown) => string | undefined> {
  const routes: Record<string, (value: unknown) => string | undefined> = {
    [`${spelling}, BigInt.prototype.toJSON`]: (value) => stringifyWithPrototype(value, spelling),
    [`${spelling}, replacer`]: (value) => stringifyWithReplacer(value, spelling),
    [`${spelling}, as the runtime chooses`]: (value) => stringifyWithBigInts(value, spelling),
  };
  if (spelling === "raw-json") routes["raw-json, bigints swapped in place"] = swappedLeavingValue;
  return routes;
}

/**
 * The swap's text (json-raw-swap.ts), where it gives one; a text saying so where the value it
 * was given does not print as before (a bigint not put back).
 */
function swappedLeavingValue(value: unknown): string | undefined {
  const before = printJson(value);
  const text = stringifySwapped(value, rawJson());
  if (printJson(value) !== before) return `the value changed: ${printJson(value)}`;
  return text ?? stringifyWithPrototype(value, "raw-json");
}

function rawJson(): (text: string) => unknown {
  const raw = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;
  if (!raw) throw new Error("JSON.rawJSON is missing in this runtime");
  return raw;
}

const BIG = 2n ** 64n + 1n;

/**
 * Values a converter may return that are not plain data, each built afresh: the swap must give
 * them up to the general path, or print them as it does, and leave them as they were.
 */
export const hostileValues: Record<string, () => unknown> = {
  "a frozen object": () => ({ a: [Object.freeze({ b: BIG })] }),
  "a frozen array": () => ({ a: Object.freeze([1, BIG]) }),
  "a read-only property": () => Object.defineProperty({ x: 1 }, "a", { value: BIG, enumerable: true }),
  "a getter returning a bigint": () => ({
    get a() {
      return BIG;
    },
  }),
  "a getter returning a fresh object holding one": () => ({
    b: BIG,
    get a() {
      return { c: BIG };
    },
  }),
  "a getter and a setter": () => {
    let held: unknown = BIG;
    return {
      get a() {
        return held;
      },
      set a(value: unknown) {
        held = typeof value === "bigint" ? value : "set from outside";
      },
    };
  },
  "an own toJSON": () => ({ b: BIG, toJSON: () => ({ c: BIG }) }),
  "a toJSON that looks at what it holds": () => ({
    a: {
      b: BIG,
      toJSON() {
        return { seen: typeof this.b, b: this.b };
      },
    },
  }),
  "a class instance": () => ({
    a: new (class Holder {
      b = BIG;
    })(),
  }),
  "a boxed bigint": () => ({ a: Object(BIG) as unknown, b: BIG }),
  "a Date beside": () => ({ d: new Date(0), a: BIG }),
  "the same object twice": () => {
    const shared = { a: BIG };
    return { x: shared, y: [shared, shared] };
  },
  "a __proto__ key": () =>
    Object.defineProperty({ b: BIG }, "__proto__", { value: BIG, enumerable: true, writable: true }),
  "a null prototype": () => Object.assign(Object.create(null) as object, { a: BIG, b: [BIG] }),
  "a proxy": () => ({ a: new Proxy({ b: BIG, c: [BIG] }, {}) }),
  "a sparse array": () => ({ a: [, BIG, , -BIG] }),
  "raw JSON from a converter": () => ({ a: rawJson()("12345678901234567890"), b: BIG }),
  "more values than the walk takes": () => ({ a: Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? BIG : i)) }),
  "a bigint alone": () => BIG,
  "no bigint at all": () => ({ a: [1, "b", null] }),
};

/** Where the swap strays from the general path on `hostileValues`, by name; empty if nowhere. */
export function swapStrays(): string[] {
  const problems: string[] = [];
  for (const [name, build] of Object.entries(hostileValues)) {
    const expected = stringifyWithPrototype(build(), "raw-json");
    // The replacer is left out: it misses a boxed bigint (encodeJson's iterative printer takes those).
    const routes = Object.entries(printings("raw-json")).filter(([route]) => !route.endsWith("replacer"));
    for (const [route, print] of routes) {
      let text: string | undefined;
      try {
        text = print(build());
      } catch (error) {
        text = `threw ${(error as Error).message}`;
      }
      if (text !== expected) problems.push(`${name}, ${route}: wrote ${text}, expected ${expected}`);
    }
  }
  return problems;
}

/**
 * Where printing the value read from `document` strays from the text expected, by route: each
 * of `routes`, the encoder as the engine calls it (`deep`: past 500 levels), the iterative
 * printer. Undefined if every route writes exactly the expected text.
 */
export function strays(
  document: Document,
  routes: Record<string, (value: unknown) => string | undefined>,
  deep = false,
): string | undefined {
  const { value, lossless } = decodeJson(document.text);
  const printed: Record<string, () => string | undefined> = {
    ...Object.fromEntries(Object.entries(routes).map(([name, print]) => [name, () => print(value)])),
    "encodeJson, as the engine calls it": () => encodeJson(value, lossless, deep),
    "the iterative printer": () => printJson(value),
  };
  const problems: string[] = [];
  for (const [name, print] of Object.entries(printed)) {
    const text = print();
    if (text !== document.expected) problems.push(`${name} wrote ${clip(text)}`);
  }
  return problems.length === 0
    ? undefined
    : `for ${clip(document.text)}, expected ${clip(document.expected)}; ${problems.join("; ")}`;
}

const clip = (text: string | undefined) =>
  text === undefined || text.length < 400 ? String(text) : `${text.slice(0, 400)}...`;

/** fast-check's property over `documents`, failing with what strayed. */
export function printsAsExpected(
  arbitrary: fc.Arbitrary<Document>,
  routes: Record<string, (value: unknown) => string | undefined>,
  deep = false,
) {
  return fc.property(arbitrary, (document) => {
    const problem = strays(document, routes, deep);
    if (problem) throw new Error(problem);
  });
}
