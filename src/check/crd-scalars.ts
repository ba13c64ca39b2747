import fc from "fast-check";
import { type Bound, countBound, isMultipleOf, type OpenApiSchema, patternRegExp } from "../kube/crd";
/**
 * Scalar values a CRD's schema allows, for crd-arbitrary.ts: strings within its lengths (in code
 * points, as Go counts them), patterns and formats; integers within its bounds, beyond 2^53 as
 * `bigint` where unbounded; numbers.
 */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const BEYOND_SAFE = 2n ** 53n;

export function stringFor(schema: OpenApiSchema): fc.Arbitrary<string> {
  const min = countBound(schema.minLength) ?? 0;
  const maxLength = countBound(schema.maxLength);
  const max = Math.max(min, Math.min(maxLength ?? 24, min + 24));
  const regex = schema.pattern !== undefined ? patternRegExp(schema.pattern) : undefined;
  const formatted = schema.format ? formatFor(schema.format) : undefined;
  if (!regex && !formatted) {
    // Mostly ASCII; sometimes any code point, astral ones included (lengths count code points,
    // as Go does), and sometimes exactly as long as the CRD allows: where a check that counts
    // UTF-16 units (JavaScript's .length) is stricter than the apiserver.
    const parts: Array<fc.WeightedArbitrary<string>> = [
      { weight: 6, arbitrary: fc.string({ unit: units().ascii, minLength: min, maxLength: max }) },
      { weight: 2, arbitrary: fc.string({ unit: units().any, minLength: min, maxLength: max }) },
    ];
    if (maxLength !== undefined && maxLength <= 4096)
      parts.push({
        weight: 1,
        arbitrary: fc.string({ unit: units().any, minLength: maxLength, maxLength }),
      });
    return fc.oneof(...parts);
  }
  const source = formatted ?? matching(regex!);
  return source.filter(
    (text) => withinCount([...text].length, schema.minLength, schema.maxLength) && (!regex || regex.test(text)),
  );
}

let unitCache: { ascii: fc.Arbitrary<string>; any: fc.Arbitrary<string> } | undefined;

/**
 * One character (code point) each, built once. Any code point but lone surrogates, which JSON
 * from the apiserver cannot hold; not fast-check's "binary" unit, which maps all 1.1 million code
 * points into a table when first used (a second of start-up).
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

const matchers = new Map<string, fc.Arbitrary<string>>();

/** fc.stringMatching reads the expression when called, which is slow: one per pattern. */
function matching(regex: RegExp): fc.Arbitrary<string> {
  let arbitrary = matchers.get(regex.source);
  if (!arbitrary) {
    arbitrary = fc.stringMatching(regex);
    matchers.set(regex.source, arbitrary);
  }
  return arbitrary;
}

/** Values of the formats the apiserver checks that real CRDs use; other formats get plain text. */
function formatFor(format: string): fc.Arbitrary<string> | undefined {
  switch (format) {
    case "date-time":
      return fc
        .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
        .chain((date) => fc.constantFrom(date.toISOString(), date.toISOString().replace(/\.\d{3}Z$/, "Z")));
    case "date":
      return fc
        .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
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

export function integerFor(schema: OpenApiSchema): fc.Arbitrary<number | bigint> {
  // Bounds as exact integers: an int64 bound beyond 2^53 is a bigint, and a double would round it.
  const low = schema.minimum === undefined ? undefined : integerAbove(schema.minimum, schema.exclusiveMinimum === true);
  const high =
    schema.maximum === undefined ? undefined : integerBelow(schema.maximum, schema.exclusiveMaximum === true);
  // The apiserver holds any int64 (it does not bound format int32 either).
  const min = low ?? INT64_MIN;
  const max = high ?? INT64_MAX;
  if (min > max) return fc.constant(asWebhookInteger(min));
  // Mostly a window near zero (or the bound nearest it), where converters' arithmetic lives.
  const clamp = (n: bigint) => (n < min ? min : n > max ? max : n);
  const nearHigh = clamp(clamp(-1000n) + 2000n);
  const parts: Array<fc.WeightedArbitrary<number | bigint>> = [
    { weight: 8, arbitrary: integersBetween(clamp(nearHigh - 2000n), nearHigh) },
  ];
  if (low === undefined || high === undefined || min < -BEYOND_SAFE || max > BEYOND_SAFE) {
    const safeMin = min > -BEYOND_SAFE ? min : -BEYOND_SAFE + 1n;
    const safeMax = max < BEYOND_SAFE ? max : BEYOND_SAFE - 1n;
    if (safeMin <= safeMax) parts.push({ weight: 1, arbitrary: integersBetween(safeMin, safeMax) });
    if (max >= BEYOND_SAFE)
      parts.push({ weight: 1, arbitrary: fc.bigInt({ min: min > BEYOND_SAFE ? min : BEYOND_SAFE, max }) });
    if (min <= -BEYOND_SAFE)
      parts.push({ weight: 1, arbitrary: fc.bigInt({ min, max: max < -BEYOND_SAFE ? max : -BEYOND_SAFE }) });
  }
  const arbitrary = fc.oneof(...parts);
  const step = schema.multipleOf;
  return step === undefined ? arbitrary : arbitrary.filter((n) => isMultipleOf(n, step));
}

/** Integers from `min` to `max`, as the webhook reads them: numbers where a double holds them, else bigint. */
function integersBetween(min: bigint, max: bigint): fc.Arbitrary<number | bigint> {
  if (min > -BEYOND_SAFE && max < BEYOND_SAFE) return fc.integer({ min: Number(min), max: Number(max) });
  return fc.bigInt({ min, max }).map(asWebhookInteger);
}

function asWebhookInteger(n: bigint): number | bigint {
  return n > -BEYOND_SAFE && n < BEYOND_SAFE ? Number(n) : n;
}

/** The least integer a lower bound allows. */
function integerAbove(bound: Bound, exclusive: boolean): bigint {
  if (typeof bound === "bigint") return exclusive ? bound + 1n : bound;
  return BigInt(exclusive ? Math.floor(bound) + 1 : Math.ceil(bound));
}

/** The greatest integer an upper bound allows. */
function integerBelow(bound: Bound, exclusive: boolean): bigint {
  if (typeof bound === "bigint") return exclusive ? bound - 1n : bound;
  return BigInt(exclusive ? Math.ceil(bound) - 1 : Math.floor(bound));
}

export function numberFor(schema: OpenApiSchema): fc.Arbitrary<number | bigint> {
  const min = schema.minimum;
  const max = schema.maximum;
  const double = fc
    .double({
      // A bigint bound is beyond 2^53: the double nearest it, within it, bounds the doubles.
      min: min === undefined ? -1e9 : doubleWithin(min, "up"),
      max: max === undefined ? 1e9 : doubleWithin(max, "down"),
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: schema.exclusiveMinimum === true,
      maxExcluded: schema.exclusiveMaximum === true,
    })
    .map((n) => (Object.is(n, -0) ? 0 : n));
  const arbitrary = fc.oneof({ weight: 3, arbitrary: double }, { weight: 1, arbitrary: integerFor(schema) });
  const step = schema.multipleOf;
  return step === undefined ? arbitrary : arbitrary.filter((n) => isMultipleOf(n, step));
}

/** The double nearest `bound` on its allowed side: `bound` itself when it is a number. */
function doubleWithin(bound: Bound, side: "up" | "down"): number {
  if (typeof bound === "number") return bound;
  const near = Number(bound);
  if (side === "up" ? near >= bound : near <= bound) return near;
  return side === "up" ? nextDouble(near, 1) : nextDouble(near, -1);
}

/** The next double after `n`, up or down (`n` is finite and far from zero). */
function nextDouble(n: number, direction: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  const bits = view.getBigUint64(0);
  // Away from zero when the sign and the direction agree, toward it otherwise.
  view.setBigUint64(0, n > 0 === direction > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

export function withinCount(count: number, min: Bound | undefined, max: Bound | undefined): boolean {
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}
