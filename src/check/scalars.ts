import fc from "fast-check";
import { type Bound, isMultipleOf } from "../kube/crd";
import { boundedFilter } from "./bounded-filter";
import { boundedQuantifiers } from "./length-hint";

/**
 * The leaves of generated objects, one implementation for both generators (arbitrary.ts from a
 * zod schema, crd-arbitrary.ts from a CRD's schema), each of which translates its schema's
 * words into these bounds: strings within lengths, patterns and formats; integers within bounds,
 * beyond 2^53 as the `bigint` crdshift hands converters where the bounds allow; doubles; field
 * names JavaScript gives a meaning to; and any JSON value where a schema says nothing.
 */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
/** The smallest magnitude JSON.parse would round. */
export const BEYOND_SAFE = 2n ** 53n;

export interface StringBounds {
  minLength?: number | undefined;
  maxLength?: number | undefined;
  /** Proposes strings for a pattern (fast-check generates from it), and judges them unless `matches` does. */
  pattern?: RegExp | undefined;
  /** The pattern's own verdict where another engine reads it (a CRD's: Go's RE2), with its text for findings. */
  matches?: { pattern: string; test: (text: string) => boolean } | undefined;
  format?: string | undefined;
  /** How the schema counts a length: in code points (the apiserver, as Go counts runes) or UTF-16 units (zod). */
  counts: "code-points" | "utf-16";
}

export function stringsIn(bounds: StringBounds): fc.Arbitrary<string> {
  const { minLength, maxLength, pattern, matches } = bounds;
  const length = bounds.counts === "code-points" ? (text: string) => [...text].length : (text: string) => text.length;
  const formatted = bounds.format ? formatFor(bounds.format) : undefined;
  if (formatted || pattern || matches) {
    const judge = matches?.test ?? ((text: string) => !pattern || pattern.test(text));
    const proposals = formatted ?? (pattern ? patternProposals(pattern, bounds) : undefined) ?? plainStrings(bounds);
    return boundedFilter(
      proposals,
      (text) => withinCount(length(text), minLength, maxLength) && judge(text),
      () =>
        [
          matches || pattern ? `pattern ${matches?.pattern ?? pattern!.source}` : "",
          bounds.format ? `format ${bounds.format}` : "",
          minLength !== undefined ? `minLength ${minLength}` : "",
          maxLength !== undefined ? `maxLength ${maxLength}` : "",
        ]
          .filter(Boolean)
          .join(", "),
    );
  }
  return plainStrings(bounds);
}

/** Strings within the lengths alone. */
function plainStrings(bounds: StringBounds): fc.Arbitrary<string> {
  const { minLength, maxLength } = bounds;
  const min = minLength ?? 0;
  const max = Math.max(min, Math.min(maxLength ?? 24, min + 24));
  // Mostly ASCII; sometimes any code point, astral ones included.
  const parts: Array<fc.WeightedArbitrary<string>> = [
    { weight: 6, arbitrary: fc.string({ unit: units().ascii, minLength: min, maxLength: max }) },
    { weight: 2, arbitrary: fc.string({ unit: units().any, minLength: min, maxLength: max }) },
  ];
  // Sometimes exactly as long as a schema counting code points allows: where a check that counts
  // UTF-16 units (JavaScript's .length) is stricter than the apiserver.
  if (bounds.counts === "code-points" && maxLength !== undefined && maxLength <= 4096)
    parts.push({ weight: 1, arbitrary: fc.string({ unit: units().any, minLength: maxLength, maxLength }) });
  const text = fc.oneof(...parts);
  return bounds.counts === "code-points"
    ? text
    : boundedFilter(
        text,
        (s) => withinCount(s.length, minLength, maxLength),
        () => `minLength ${minLength ?? 0}, maxLength ${maxLength ?? "any"}`,
      );
}

let unitCache: { ascii: fc.Arbitrary<string>; any: fc.Arbitrary<string> } | undefined;

/**
 * One character (code point) each, built once. Any code point but lone surrogates, which JSON
 * from the apiserver cannot hold; not fast-check's "binary" unit, which maps all 1.1 million code
 * points into a table when first used (a slow start).
 */
function units(): { ascii: fc.Arbitrary<string>; any: fc.Arbitrary<string> } {
  unitCache ??= {
    ascii: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }),
    // ASCII first, so a shrunk example reads "a" rather than "\u0000".
    any: fc.oneof(
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }),
      fc
        .oneof(fc.integer({ min: 0x80, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
        .map((codePoint) => String.fromCodePoint(codePoint)),
    ),
  };
  return unitCache;
}

/**
 * Strings a pattern proposes. Where the schema bounds the length, half come from the pattern with
 * its repetitions bounded by the longest length allowed, at every size up to it (length-hint.ts).
 */
function patternProposals(pattern: RegExp, bounds: StringBounds): fc.Arbitrary<string> | undefined {
  const plain = matching(pattern);
  if (!plain || (bounds.minLength === undefined && bounds.maxLength === undefined)) return plain;
  const longest = Math.min(bounds.maxLength ?? (bounds.minLength ?? 0) + 24, 4096);
  const hinted = boundedQuantifiers(pattern, longest);
  const sized = hinted && matching(hinted, "max");
  return sized ? fc.oneof(plain, sized) : plain;
}

const matchers = new Map<string, fc.Arbitrary<string> | undefined>();

/**
 * fc.stringMatching reads the expression when called, which is slow: one per pattern. Undefined
 * where it cannot read it (some flags and constructs): plain strings then propose.
 */
function matching(regex: RegExp, size?: fc.SizeForArbitrary): fc.Arbitrary<string> | undefined {
  const key = `${size ?? ""}/${regex.flags}/${regex.source}`;
  if (!matchers.has(key)) {
    let arbitrary: fc.Arbitrary<string> | undefined;
    try {
      arbitrary = fc.stringMatching(regex, size ? { size } : {});
    } catch {
      arbitrary = undefined;
    }
    matchers.set(key, arbitrary);
  }
  return matchers.get(key);
}

/** Values of the formats the apiserver checks that real CRDs use; other formats get plain text. */
function formatFor(format: string): fc.Arbitrary<string> | undefined {
  const dates = () =>
    fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true });
  switch (format) {
    case "date-time":
      return dates().chain((date) => fc.constantFrom(date.toISOString(), date.toISOString().replace(/\.\d{3}Z$/, "Z")));
    case "date":
      return dates().map((date) => date.toISOString().slice(0, 10));
    case "byte":
      return fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString("base64"));
    case "duration":
      return fc.tuple(fc.nat(48), fc.nat(59), fc.nat(59)).map(([h, m, s]) => `${h}h${m}m${s}s`);
    case "uuid":
      return fc.uuid();
    case "ipv4":
      return fc.ipV4();
    case "ipv6":
      return fc.ipV6();
    case "cidr":
      return fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([ip, bits]) => `${ip}/${bits}`);
    case "hostname":
      return fc.domain();
    case "email":
      return fc.emailAddress();
    case "uri":
      return fc.webUrl();
    case "mac":
      return fc
        .array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 })
        .map((bytes) => bytes.map((b) => b.toString(16).padStart(2, "0")).join(":"));
    default:
      return undefined;
  }
}

/**
 * Integers in [low, high] (inclusive; either may be absent): mostly small ones, sometimes any
 * safe integer, and, where the bounds reach past ±2^53, `bigint`s there, up to int64's limits
 * (the apiserver holds any int64; a CRD's `format: int32` narrows the bounds it passes).
 */
export function integersIn(
  low: number | bigint | undefined,
  high: number | bigint | undefined,
  multipleOf?: Bound,
): fc.Arbitrary<number | bigint> {
  const bigLow = low === undefined ? INT64_MIN : clampInt64(BigInt(low));
  const bigHigh = high === undefined ? INT64_MAX : clampInt64(BigInt(high));
  const safeLow = bigLow <= -BEYOND_SAFE ? Number.MIN_SAFE_INTEGER : Number(bigLow);
  const safeHigh = bigHigh >= BEYOND_SAFE ? Number.MAX_SAFE_INTEGER : Number(bigHigh);
  const parts: Array<fc.WeightedArbitrary<number | bigint>> = [];
  if (safeLow <= safeHigh) {
    // Mostly values near zero, or near the bound closest to it: where a slip shows in few digits.
    const near = safeLow > 0 ? safeLow : safeHigh < 0 ? safeHigh : 0;
    const small = { min: Math.max(safeLow, near - 1000), max: Math.min(safeHigh, near + 1000) };
    parts.push({ weight: 8, arbitrary: fc.integer(small) });
    if (small.min > safeLow || small.max < safeHigh)
      parts.push({ weight: 1, arbitrary: fc.integer({ min: safeLow, max: safeHigh }) });
  }
  if (bigHigh >= BEYOND_SAFE)
    parts.push({ weight: 1, arbitrary: fc.bigInt({ min: bigLow > BEYOND_SAFE ? bigLow : BEYOND_SAFE, max: bigHigh }) });
  if (bigLow <= -BEYOND_SAFE)
    parts.push({
      weight: 1,
      arbitrary: fc.bigInt({ min: bigLow, max: bigHigh < -BEYOND_SAFE ? bigHigh : -BEYOND_SAFE }),
    });
  const arbitrary = parts.length > 0 ? fc.oneof(...parts) : fc.constant(low ?? 0);
  return multipleOf === undefined
    ? arbitrary
    : boundedFilter(
        arbitrary,
        (n) => isMultipleOf(n, multipleOf),
        () => `multipleOf ${multipleOf} between ${low ?? "any"} and ${high ?? "any"}`,
      );
}

function clampInt64(n: bigint): bigint {
  return n < INT64_MIN ? INT64_MIN : n > INT64_MAX ? INT64_MAX : n;
}

/** A CRD's bounds may be int64 beyond 2^53 (bigint): the doubles stop at the nearest one within. */
export interface DoubleBounds {
  min?: Bound | undefined;
  max?: Bound | undefined;
  minExcluded?: boolean;
  maxExcluded?: boolean;
  multipleOf?: Bound | undefined;
}

/** Doubles within bounds (-0 as 0: JSON text holds no -0), finite. */
function doublesIn(bounds: DoubleBounds): fc.Arbitrary<number> {
  const arbitrary = fc
    .double({
      min: bounds.min === undefined ? -1e9 : doubleWithin(bounds.min, "up"),
      max: bounds.max === undefined ? 1e9 : doubleWithin(bounds.max, "down"),
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: bounds.minExcluded === true,
      maxExcluded: bounds.maxExcluded === true,
    })
    .map((n) => (Object.is(n, -0) ? 0 : n));
  const step = bounds.multipleOf;
  return step === undefined
    ? arbitrary
    : boundedFilter(
        arbitrary,
        (n) => isMultipleOf(n, step),
        () => `multipleOf ${step} between ${bounds.min ?? "any"} and ${bounds.max ?? "any"}`,
      );
}

/** The double nearest `bound` on its allowed side: `bound` itself when it is a number. */
function doubleWithin(bound: Bound, side: "up" | "down"): number {
  if (typeof bound === "number") return bound;
  const near = Number(bound);
  if (side === "up" ? near >= bound : near <= bound) return near;
  return side === "up" ? nextDouble(near, 1) : nextDouble(near, -1);
}

function nextDouble(n: number, direction: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  const bits = view.getBigUint64(0);
  // Away from zero when the sign and the direction agree, toward it otherwise.
  view.setBigUint64(0, n > 0 === direction > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/** A number field: doubles mostly, and integers in [low, high] where the bounds hold any (not 0.2 to 0.8). */
export function numbersIn(
  bounds: DoubleBounds,
  low: number | bigint | undefined,
  high: number | bigint | undefined,
): fc.Arbitrary<number | bigint> {
  const doubles = doublesIn(bounds);
  if (low !== undefined && high !== undefined && low > high) return doubles;
  return fc.oneof(
    { weight: 3, arbitrary: doubles },
    { weight: 1, arbitrary: integersIn(low, high, bounds.multipleOf) },
  );
}

export function withinCount(count: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}
