import fc from "fast-check";
import { toJSONSchema } from "zod/v4/core";
import type { Schema } from "../conversion";
import { anyJson, entriesToObject, fieldName } from "./any-json";
import { integersIn, numbersIn, stringsIn } from "./scalars";

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

/** JSON Schema's string words as the shared bounds; zod counts lengths in UTF-16 units. */
function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const pattern = typeof schema.pattern === "string" ? new RegExp(schema.pattern) : undefined;
  return stringsIn({
    minLength: schema.minLength,
    maxLength: schema.maxLength,
    pattern,
    // zod states each format it checks as a pattern too, and the pattern is what it holds strings to.
    format: pattern ? undefined : schema.format,
    counts: "utf-16",
  });
}

/** JSON Schema's bounds (2020-12: exclusive bounds are numbers) as the shared ones. */
function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number | bigint> {
  const min: number | undefined = schema.minimum ?? schema.exclusiveMinimum;
  const max: number | undefined = schema.maximum ?? schema.exclusiveMaximum;
  const minExcluded = schema.minimum === undefined && schema.exclusiveMinimum !== undefined;
  const maxExcluded = schema.maximum === undefined && schema.exclusiveMaximum !== undefined;
  const low = min === undefined ? undefined : minExcluded ? Math.floor(min) + 1 : Math.ceil(min);
  const high = max === undefined ? undefined : maxExcluded ? Math.ceil(max) - 1 : Math.floor(max);
  // An int64 field (a zod bigint, no bounds, or bounds past ±2^53) also holds what only bigint can carry.
  if (integer) return integersIn(low, high, schema.multipleOf);
  // zod's number takes no bigint: a plain number field gets doubles and safe integers.
  return numbersIn(
    { min, max, minExcluded, maxExcluded, multipleOf: schema.multipleOf },
    Math.max(low ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
    Math.min(high ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  );
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
  const unknown = fc
    .uniqueArray(
      fc.tuple(
        fieldName.filter((key) => !Object.hasOwn(properties, key)),
        extra === undefined || extra === true || Object.keys(extra).length === 0
          ? anyJson
          : fromJsonSchema(extra, root, options, depth + 1),
      ),
      { selector: ([key]) => key, maxLength: 2 },
    )
    .map(entriesToObject);
  // Spread, not Object.assign: a field named __proto__ stays a field.
  return fc.tuple(known, unknown).map(([own, more]) => dropUndefined({ ...more, ...own }));
}

function dropUndefined(object: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}
