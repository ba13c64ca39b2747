import fc from "fast-check";
import { type OpenApiSchema, patternRegExp } from "../kube/crd";
/**
 * Scalar values a CRD's schema allows, for crd-arbitrary.ts: strings within its lengths (in code
 * points, as Go counts them), patterns and formats; integers within its bounds, beyond 2^53 as
 * `bigint` where unbounded; numbers.
 */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const BEYOND_SAFE = 2n ** 53n;

export function stringFor(schema: OpenApiSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 24, min + 24));
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
    if (schema.maxLength !== undefined && schema.maxLength <= 4096)
      parts.push({
        weight: 1,
        arbitrary: fc.string({ unit: units().any, minLength: schema.maxLength, maxLength: schema.maxLength }),
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
  const low =
    schema.minimum === undefined
      ? undefined
      : schema.exclusiveMinimum
        ? Math.floor(schema.minimum) + 1
        : Math.ceil(schema.minimum);
  const high =
    schema.maximum === undefined
      ? undefined
      : schema.exclusiveMaximum
        ? Math.ceil(schema.maximum) - 1
        : Math.floor(schema.maximum);
  const small = fc.integer({
    min: Math.max(low ?? -1000, Number.MIN_SAFE_INTEGER),
    max: Math.min(high ?? 1000, Number.MAX_SAFE_INTEGER),
  });
  const parts: Array<fc.WeightedArbitrary<number | bigint>> = [{ weight: 8, arbitrary: small }];
  if (low === undefined || high === undefined) {
    // The apiserver holds any int64 (it does not bound format int32 either).
    const bigMin = low === undefined ? INT64_MIN : BigInt(low);
    const bigMax = high === undefined ? INT64_MAX : BigInt(high);
    parts.push({
      weight: 1,
      arbitrary: fc.integer({
        min: Math.max(low ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
        max: Math.min(high ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
      }),
    });
    if (bigMax > BEYOND_SAFE)
      parts.push({
        weight: 1,
        arbitrary: fc.bigInt({ min: bigMin > BEYOND_SAFE ? bigMin : BEYOND_SAFE, max: bigMax }),
      });
    if (bigMin < -BEYOND_SAFE)
      parts.push({
        weight: 1,
        arbitrary: fc.bigInt({ min: bigMin, max: bigMax < -BEYOND_SAFE ? bigMax : -BEYOND_SAFE }),
      });
  }
  const arbitrary = fc.oneof(...parts);
  const step = schema.multipleOf;
  return step === undefined ? arbitrary : arbitrary.filter((n) => typeof n === "number" && Number.isInteger(n / step));
}

export function numberFor(schema: OpenApiSchema): fc.Arbitrary<number | bigint> {
  const min = schema.minimum;
  const max = schema.maximum;
  const double = fc
    .double({
      min: min ?? -1e9,
      max: max ?? 1e9,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: schema.exclusiveMinimum === true,
      maxExcluded: schema.exclusiveMaximum === true,
    })
    .map((n) => (Object.is(n, -0) ? 0 : n));
  const arbitrary = fc.oneof({ weight: 3, arbitrary: double }, { weight: 1, arbitrary: integerFor(schema) });
  const step = schema.multipleOf;
  return step === undefined ? arbitrary : arbitrary.filter((n) => typeof n === "number" && Number.isInteger(n / step));
}

export function withinCount(count: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}
