import fc from "fast-check";
import { setOwn } from "../openapi/prune";
import { OBJECT_ENVELOPE, isMapSchema, keepsUnknownFields, mapValues, type OpenApiSchema } from "../openapi/schema";
import { itemIdentity, matchesSchema, patternRegExp } from "../openapi/value-check";

/**
 * Random objects a CRD version's `openAPIV3Schema` accepts, read from the schema itself (not
 * from a zod schema), so they show what a registry must accept: the apiserver stores every one
 * of them. Honoured: types, required fields, enum, nullable, string lengths in code points
 * (as Go counts them, astral characters included), patterns JavaScript can read, the formats
 * below, numeric bounds, item and entry counts, unique items and list map keys, int-or-string,
 * preserved unknown fields, embedded resources, and anyOf/oneOf/allOf/not (by filtering).
 * Integers without bounds include values beyond 2^53, as the `bigint` crdshift hands converters.
 * CEL rules are not evaluated: an object may break one.
 *
 * The body is returned without `apiVersion`, `kind` and `metadata`; keys such as `__proto__`
 * are plain data, as they are in the apiserver's objects.
 */
export interface CrdArbitraryOptions {
  /** Required fields may be absent too, as in server-side apply's partial objects. */
  partial?: boolean;
  /** Below this depth only required fields (and minimal lists) are generated (default 7). */
  maxDepth?: number;
}

export function crdObjectArbitrary(schema: OpenApiSchema | undefined, options: CrdArbitraryOptions = {}): fc.Arbitrary<Record<string, unknown>> {
  const context: Context = { partial: options.partial === true, maxDepth: options.maxDepth ?? 7 };
  if (schema === undefined) return unknownFields(new Set(OBJECT_ENVELOPE), 0);
  return objectFor(schema, context, 0, { root: true }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Any value the schema accepts at one place (for a field's own tests). */
export function crdValueArbitrary(schema: OpenApiSchema, options: CrdArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return valueFor(schema, { partial: options.partial === true, maxDepth: options.maxDepth ?? 7 }, 0, []);
}

interface Context {
  partial: boolean;
  maxDepth: number;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const BEYOND_SAFE = 2n ** 53n;

function valueFor(schema: OpenApiSchema, context: Context, depth: number, forced: readonly string[]): fc.Arbitrary<unknown> {
  let arbitrary = baseFor(schema, context, depth, forced);
  if (hasJunctors(schema)) arbitrary = arbitrary.filter((value) => junctorsHold(schema, value));
  if (schema.nullable) return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 6, arbitrary });
  return arbitrary;
}

function baseFor(schema: OpenApiSchema, context: Context, depth: number, forced: readonly string[]): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.filter((value) => value !== null);
    return options.length > 0 ? fc.constantFrom(...options) : fc.constant(null);
  }
  if (schema["x-kubernetes-int-or-string"]) return fc.oneof(integerFor(schema), stringFor(schema));
  switch (schema.type) {
    case "object":
      return isMapSchema(schema) ? mapFor(schema, context, depth) : objectFor(schema, context, depth, { forced });
    case "array":
      return arrayFor(schema, context, depth);
    case "string":
      return stringFor(schema);
    case "integer":
      return integerFor(schema);
    case "number":
      return numberFor(schema);
    case "boolean":
      return fc.boolean();
    default:
      // Any value, but null only where allowed: the apiserver drops other nulls before storing.
      return schema["x-kubernetes-embedded-resource"] ? objectFor(schema, context, depth, { forced }) : anyJson.filter((value) => value !== null);
  }
}

function objectFor(schema: OpenApiSchema, context: Context, depth: number, place: { root?: boolean; forced?: readonly string[] }): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const skip = new Set<string>(place.root ? OBJECT_ENVELOPE : []);
  const required = new Set([...(context.partial ? [] : (schema.required ?? [])), ...(place.forced ?? [])]);
  // Deep down only required fields are made, unless the object's own constraints (an entry
  // count, anyOf/oneOf over fields) need optional ones: they are filtered for, and would never pass.
  const deep = depth >= context.maxDepth && !hasJunctors(schema) && schema.minProperties === undefined;
  const fields: Array<fc.Arbitrary<[string, unknown] | undefined>> = [];
  for (const key of Object.keys(properties)) {
    if (skip.has(key)) continue;
    const child = properties[key]!;
    const value = valueFor(child, context, depth + 1, []).map((v): [string, unknown] => [key, v]);
    if (required.has(key)) fields.push(value);
    // Absent first, with cross-shrinking: a shrunk counterexample keeps only the fields that matter.
    else if (!deep) fields.push(fc.oneof({ withCrossShrink: true }, { weight: 1 + depth, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: value }));
  }
  if (schema["x-kubernetes-embedded-resource"]) fields.push(...embeddedEnvelope(context, properties));
  const known = new Set([...Object.keys(properties), ...skip, ...(schema["x-kubernetes-embedded-resource"] ? OBJECT_ENVELOPE : [])]);
  const extra = keepsUnknownFields(schema) && !deep ? unknownFields(known, depth) : fc.constant<Record<string, unknown>>({});
  let arbitrary = fc.tuple(fc.tuple(...fields), extra).map(([entries, more]) => {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(more)) setOwn(object, key, more[key]);
    for (const entry of entries) if (entry) setOwn(object, entry[0], entry[1]);
    return object;
  });
  if (schema.minProperties !== undefined || schema.maxProperties !== undefined) {
    arbitrary = arbitrary.filter((object) => withinCount(Object.keys(object).length, schema.minProperties, schema.maxProperties));
  }
  return arbitrary;
}

/** An embedded resource's own envelope: the apiserver requires apiVersion and kind there. */
function embeddedEnvelope(context: Context, properties: Record<string, OpenApiSchema>): Array<fc.Arbitrary<[string, unknown] | undefined>> {
  const envelope: Array<fc.Arbitrary<[string, unknown] | undefined>> = [];
  const optional = <T>(arbitrary: fc.Arbitrary<T>) => (context.partial ? fc.option(arbitrary, { nil: undefined }) : arbitrary);
  if (!properties.apiVersion) envelope.push(optional(fc.constantFrom("v1", "apps/v1", "example.com/v1alpha1").map((v): [string, unknown] => ["apiVersion", v])));
  if (!properties.kind) envelope.push(optional(fc.constantFrom("Pod", "ConfigMap", "Widget").map((v): [string, unknown] => ["kind", v])));
  if (!properties.metadata) {
    const metadata = fc.record({ name: fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/), labels: fc.dictionary(fc.constantFrom("app", "tier"), fc.constantFrom("web", "db")) }, { requiredKeys: [] });
    envelope.push(fc.option(metadata.map((v): [string, unknown] => ["metadata", v]), { nil: undefined }));
  }
  return envelope;
}

function mapFor(schema: OpenApiSchema, context: Context, depth: number): fc.Arbitrary<unknown> {
  const min = schema.minProperties ?? 0;
  const max = Math.min(schema.maxProperties ?? Number.POSITIVE_INFINITY, depth >= context.maxDepth ? min : min + 3);
  const values = valueFor(mapValues(schema), context, depth + 1, []);
  return fc.uniqueArray(fc.tuple(mapKey, values), { selector: ([key]) => key, minLength: min, maxLength: max }).map(entriesToObject);
}

function arrayFor(schema: OpenApiSchema, context: Context, depth: number): fc.Arbitrary<unknown> {
  const min = schema.minItems ?? 0;
  const max = Math.min(schema.maxItems ?? Number.POSITIVE_INFINITY, depth >= context.maxDepth ? min : min + 3);
  // A list map's keys identify its items: server-side apply's partial items carry them too.
  const keys = schema["x-kubernetes-list-type"] === "map" ? (schema["x-kubernetes-list-map-keys"] ?? []) : [];
  const items = schema.items ? valueFor(schema.items, context, depth + 1, keys) : anyJson;
  const identity = itemIdentity(schema);
  return identity ? fc.uniqueArray(items, { selector: identity, minLength: min, maxLength: max }) : fc.array(items, { minLength: min, maxLength: max });
}

function stringFor(schema: OpenApiSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 24, min + 24));
  const regex = schema.pattern !== undefined ? patternRegExp(schema.pattern) : undefined;
  const formatted = schema.format ? formatFor(schema.format) : undefined;
  if (!regex && !formatted) {
    // Mostly ASCII; sometimes any code point, astral ones included (lengths count code points,
    // as Go does), and sometimes exactly as long as the CRD allows: where a schema that counts
    // UTF-16 units, as JavaScript does, is stricter than the apiserver.
    const parts: Array<fc.WeightedArbitrary<string>> = [
      { weight: 6, arbitrary: fc.string({ unit: units().ascii, minLength: min, maxLength: max }) },
      { weight: 2, arbitrary: fc.string({ unit: units().any, minLength: min, maxLength: max }) },
    ];
    if (schema.maxLength !== undefined && schema.maxLength <= 4096) parts.push({ weight: 1, arbitrary: fc.string({ unit: units().any, minLength: schema.maxLength, maxLength: schema.maxLength }) });
    return fc.oneof(...parts);
  }
  const source = formatted ?? matching(regex!);
  return source.filter((text) => withinCount([...text].length, schema.minLength, schema.maxLength) && (!regex || regex.test(text)));
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
      fc.oneof(fc.integer({ min: 0x80, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff })).map((codePoint) => String.fromCodePoint(codePoint)),
    ),
  };
  return unitCache;
}

const matchers = new Map<string, fc.Arbitrary<string>>();

/** fc.stringMatching reads the expression when called, which is slow: one per pattern. */
function matching(regex: RegExp): fc.Arbitrary<string> {
  let arbitrary = matchers.get(regex.source);
  if (!arbitrary) matchers.set(regex.source, (arbitrary = fc.stringMatching(regex)));
  return arbitrary;
}

/** Values of the formats the apiserver checks that real CRDs use; other formats get plain text. */
function formatFor(format: string): fc.Arbitrary<string> | undefined {
  switch (format) {
    case "date-time":
      return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).chain((date) =>
        fc.constantFrom(date.toISOString(), date.toISOString().replace(/\.\d{3}Z$/, "Z")),
      );
    case "date":
      return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
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
      return fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 }).map((bytes) => bytes.map((b) => b.toString(16).padStart(2, "0")).join(":"));
    default:
      return undefined;
  }
}

function integerFor(schema: OpenApiSchema): fc.Arbitrary<number | bigint> {
  const low = schema.minimum === undefined ? undefined : schema.exclusiveMinimum ? Math.floor(schema.minimum) + 1 : Math.ceil(schema.minimum);
  const high = schema.maximum === undefined ? undefined : schema.exclusiveMaximum ? Math.ceil(schema.maximum) - 1 : Math.floor(schema.maximum);
  const small = fc.integer({ min: Math.max(low ?? -1000, Number.MIN_SAFE_INTEGER), max: Math.min(high ?? 1000, Number.MAX_SAFE_INTEGER) });
  const parts: Array<fc.WeightedArbitrary<number | bigint>> = [{ weight: 8, arbitrary: small }];
  if (low === undefined || high === undefined) {
    // The apiserver holds any int64 (it does not bound format int32 either).
    const bigMin = low === undefined ? INT64_MIN : BigInt(low);
    const bigMax = high === undefined ? INT64_MAX : BigInt(high);
    parts.push({ weight: 1, arbitrary: fc.integer({ min: Math.max(low ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER), max: Math.min(high ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) }) });
    if (bigMax > BEYOND_SAFE) parts.push({ weight: 1, arbitrary: fc.bigInt({ min: bigMin > BEYOND_SAFE ? bigMin : BEYOND_SAFE, max: bigMax }) });
    if (bigMin < -BEYOND_SAFE) parts.push({ weight: 1, arbitrary: fc.bigInt({ min: bigMin, max: bigMax < -BEYOND_SAFE ? bigMax : -BEYOND_SAFE }) });
  }
  const arbitrary = fc.oneof(...parts);
  const step = schema.multipleOf;
  return step === undefined ? arbitrary : arbitrary.filter((n) => typeof n === "number" && Number.isInteger(n / step));
}

function numberFor(schema: OpenApiSchema): fc.Arbitrary<number | bigint> {
  const min = schema.minimum;
  const max = schema.maximum;
  const double = fc
    .double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true, noDefaultInfinity: true, minExcluded: schema.exclusiveMinimum === true, maxExcluded: schema.exclusiveMaximum === true })
    .map((n) => (Object.is(n, -0) ? 0 : n));
  const arbitrary = fc.oneof({ weight: 3, arbitrary: double }, { weight: 1, arbitrary: integerFor(schema) });
  const step = schema.multipleOf;
  return step === undefined ? arbitrary : arbitrary.filter((n) => typeof n === "number" && Number.isInteger(n / step));
}

/** Map keys: any text, and the keys that trip JavaScript objects (the apiserver's maps keep them). */
const mapKey = fc.oneof({ weight: 8, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "prototype", "toString") });

/** What a node of no declared type holds: any JSON value, or an integer beyond 2^53. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 2 }).map(noNegativeZero) },
  { weight: 1, arbitrary: fc.bigInt({ min: BEYOND_SAFE + 1n, max: INT64_MAX }) },
);

function unknownFields(known: ReadonlySet<string>, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const key = mapKey.filter((k) => !known.has(k));
  return fc.uniqueArray(fc.tuple(key, depth > 4 ? fc.constant("x") : anyJson), { selector: ([k]) => k, maxLength: 2 }).map(entriesToObject);
}

function entriesToObject(entries: Array<[string, unknown]>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) setOwn(object, key, value);
  return object;
}

function noNegativeZero(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function hasJunctors(schema: OpenApiSchema): boolean {
  return Boolean(schema.oneOf || schema.allOf || schema.not || (schema.anyOf && !schema["x-kubernetes-int-or-string"]));
}

function junctorsHold(schema: OpenApiSchema, value: unknown): boolean {
  const { anyOf, oneOf, allOf, not } = schema;
  return matchesSchema(value, { anyOf: schema["x-kubernetes-int-or-string"] ? undefined : anyOf, oneOf, allOf, not } as OpenApiSchema);
}

function withinCount(count: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}
