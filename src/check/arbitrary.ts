import fc from "fast-check";
import { toJSONSchema } from "zod/v4/core";
import type { Schema } from "../conversion";

/**
 * Random objects of a version, derived from its zod schema through zod's JSON Schema export
 * (a documented, stable form), so any schema a user writes, classic zod or zod/mini, can be
 * explored. What JSON Schema cannot say (refinements, transforms) is generated loosely and then
 * filtered by the schema itself. Values are what the webhook hands converters: ordinary objects,
 * fields named `__proto__`, `constructor` and `prototype` among the unknown ones (legal JSON, kept
 * by the apiserver), and integers beyond ±2^53 as `bigint` (json/codec.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schema documents are read field by field, untyped
type JsonSchema = { [key: string]: any };

export interface ArbitraryOptions {
  /** Fields not in the schema, where the schema lets them through: they must survive too. */
  unknownFields?: boolean;
  /** Also leave out required fields: partial objects, as server-side apply sends. */
  partial?: boolean;
}

export function arbitraryFor(schema: Schema, options: ArbitraryOptions = {}): fc.Arbitrary<Record<string, unknown>> {
  return valueArbitraryFor(schema, options).filter(
    (value): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value),
  );
}

/** Any value the schema describes, object or not. */
export function valueArbitraryFor(schema: Schema, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const json = toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    // JSON Schema has no bigint; a CRD says int64 the OpenAPI way, which numberFor understands.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === "bigint") Object.assign(jsonSchema, { type: "integer", format: "int64" });
    },
  }) as JsonSchema;
  return fromJsonSchema(json, json, options, 0);
}

const MAX_DEPTH = 6;

/** Field names JavaScript gives a meaning to; a converter must copy them as data. */
const ODD_NAMES = ["__proto__", "constructor", "prototype"];
const fieldName = fc.oneof(
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_NAMES) },
);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UNSAFE = 2n ** 53n; // the smallest magnitude JSON.parse would round

/** Integers in [min, max] beyond ±2^53, as bigint, or undefined if there are none. */
function unsafeIntegers(min: bigint, max: bigint): fc.Arbitrary<bigint> | undefined {
  const ranges: fc.Arbitrary<bigint>[] = [];
  if (max >= UNSAFE) ranges.push(fc.bigInt({ min: min > UNSAFE ? min : UNSAFE, max }));
  if (min <= -UNSAFE) ranges.push(fc.bigInt({ min, max: max < -UNSAFE ? max : -UNSAFE }));
  return ranges.length > 0 ? fc.oneof(...ranges) : undefined;
}

/**
 * A number as the webhook decodes it: an integer beyond ±2^53 printed in digits (as JSON printers
 * do below 1e21) arrives as bigint.
 */
const asDecoded = (n: number): number | bigint =>
  Number.isInteger(n) && !Number.isSafeInteger(n) && Math.abs(n) < 1e21 ? BigInt(n) : n;

const jsonScalar = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(asDecoded),
  unsafeIntegers(INT64_MIN, INT64_MAX)!,
);

const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 2, depthIdentifier: "anyJson" },
    jsonScalar,
    fc.array(tie("value"), { maxLength: 3, depthIdentifier: "anyJson" }),
    fc.dictionary(fieldName, tie("value"), { maxKeys: 3, noNullPrototype: true, depthIdentifier: "anyJson" }),
  ),
})).value;

function fromJsonSchema(
  schema: JsonSchema | boolean,
  root: JsonSchema,
  options: ArbitraryOptions,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema === true || schema === undefined) return anyJson;
  if (schema === false) return fc.constant(undefined);
  if (typeof schema.$ref === "string") {
    if (depth > MAX_DEPTH) return fc.constant(undefined);
    const path = schema.$ref.replace(/^#\/?/, "").split("/").filter(Boolean);
    return fromJsonSchema(
      path.reduce((node: JsonSchema | undefined, key: string) => node?.[key], root) ?? true,
      root,
      options,
      depth + 1,
    );
  }
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives))
    return fc.oneof(...alternatives.map((s: JsonSchema) => fromJsonSchema(s, root, options, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0)
    return fromJsonSchema(schema.allOf[0], root, options, depth + 1);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1)
    return fc.oneof(...types.map((type) => fromJsonSchema({ ...schema, type }, root, options, depth)));
  switch (types[0]) {
    case "string":
      return stringFor(schema);
    case "integer":
    case "number":
      return numberFor(schema, types[0] === "integer");
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return depth > MAX_DEPTH
        ? fc.constant([])
        : fc.array(fromJsonSchema(schema.items ?? true, root, options, depth + 1), {
            minLength: schema.minItems ?? 0,
            maxLength: Math.min(schema.maxItems ?? 4, (schema.minItems ?? 0) + 4),
          });
    case "object":
      return objectFor(schema, root, options, depth);
    default:
      return anyJson;
  }
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 24);
  if (typeof schema.pattern === "string") {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= maxLength);
  }
  // Mostly plain text, sometimes odd unicode: converters meet both.
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: "grapheme", minLength, maxLength }));
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number | bigint> {
  const min: number | undefined =
    schema.minimum ??
    (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : undefined);
  const max: number | undefined =
    schema.maximum ??
    (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : undefined);
  if (!integer) return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
  const low = Math.max(min ?? Math.min(-1e6, max ?? 0), Number.MIN_SAFE_INTEGER);
  const high = Math.min(max ?? Math.max(1e6, low + 1e6), Number.MAX_SAFE_INTEGER);
  const safe = low <= high ? fc.integer({ min: Math.ceil(low), max: Math.floor(high) }) : undefined;
  // An int64 field (a zod bigint, no bounds, or bounds past ±2^53) also holds what only bigint can carry.
  const clamp = (n: bigint) => (n < INT64_MIN ? INT64_MIN : n > INT64_MAX ? INT64_MAX : n);
  const big = unsafeIntegers(
    min === undefined ? INT64_MIN : clamp(BigInt(Math.ceil(min))),
    max === undefined ? INT64_MAX : clamp(BigInt(Math.floor(max))),
  );
  if (safe && big) return fc.oneof({ weight: 4, arbitrary: safe }, { weight: 1, arbitrary: big });
  return safe ?? big ?? fc.constant(Math.ceil(low));
}

function objectFor(
  schema: JsonSchema,
  root: JsonSchema,
  options: ArbitraryOptions,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required: string[] = options.partial ? [] : (schema.required ?? []);
  const known = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, value]) => [key, fromJsonSchema(value, root, options, depth + 1)]),
    ),
    { requiredKeys: required.filter((key) => Object.hasOwn(properties, key)), noNullPrototype: true },
  ) as fc.Arbitrary<Record<string, unknown>>;
  const extra = schema.additionalProperties;
  if (extra === false || !options.unknownFields || depth > MAX_DEPTH) return known.map(dropUndefined);
  // Unknown fields: a loose schema passes them on, and so must every converter.
  const unknown = fc.dictionary(
    fieldName.filter((key) => !Object.hasOwn(properties, key)),
    extra === undefined || extra === true || Object.keys(extra).length === 0
      ? anyJson
      : fromJsonSchema(extra, root, options, depth + 1),
    { maxKeys: 2, noNullPrototype: true },
  );
  // Spread, not Object.assign: a field named __proto__ stays a field.
  return fc.tuple(known, unknown).map(([own, more]) => dropUndefined({ ...more, ...own }));
}

function dropUndefined(object: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}
