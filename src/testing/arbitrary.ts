import fc from "fast-check";
import { toJSONSchema } from "zod/v4/core";
import type { Schema } from "../registry";

/**
 * Random objects of a version, derived from its zod schema through zod's JSON Schema export
 * (a documented, stable form), so any schema a user writes, classic zod or zod/mini, can be
 * explored. What JSON Schema cannot say (refinements, transforms) is generated loosely and then
 * filtered by the schema itself.
 */
type JsonSchema = { [key: string]: any };

export interface ArbitraryOptions {
  /** Fields not in the schema, where the schema lets them through: they must survive too. */
  unknownFields?: boolean;
  /** Also leave out required fields: partial objects, as server-side apply sends. */
  partial?: boolean;
}

export function arbitraryFor(schema: Schema, options: ArbitraryOptions = {}): fc.Arbitrary<Record<string, unknown>> {
  return valueArbitraryFor(schema, options).filter((value): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value));
}

/** Any value the schema describes, object or not. */
export function valueArbitraryFor(schema: Schema, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const json = toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return fromJsonSchema(json, json, options, 0);
}

const MAX_DEPTH = 6;
const anyJson = fc.jsonValue({ maxDepth: 2 });

function fromJsonSchema(schema: JsonSchema | boolean, root: JsonSchema, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  if (schema === true || schema === undefined) return anyJson;
  if (schema === false) return fc.constant(undefined);
  if (typeof schema.$ref === "string") {
    if (depth > MAX_DEPTH) return fc.constant(undefined);
    const path = schema.$ref.replace(/^#\/?/, "").split("/").filter(Boolean);
    return fromJsonSchema(path.reduce((node: any, key: string) => node?.[key], root) ?? true, root, options, depth + 1);
  }
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((s: JsonSchema) => fromJsonSchema(s, root, options, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return fromJsonSchema(schema.allOf[0], root, options, depth + 1);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => fromJsonSchema({ ...schema, type }, root, options, depth)));
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

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : undefined);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : undefined);
  if (integer) {
    return fc.integer({ min: Math.max(min ?? -1e6, Number.MIN_SAFE_INTEGER), max: Math.min(max ?? 1e6, Number.MAX_SAFE_INTEGER) });
  }
  return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

function objectFor(schema: JsonSchema, root: JsonSchema, options: ArbitraryOptions, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required: string[] = options.partial ? [] : (schema.required ?? []);
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, fromJsonSchema(value, root, options, depth + 1)])),
    { requiredKeys: required.filter((key) => key in properties) },
  ) as fc.Arbitrary<Record<string, unknown>>;
  const extra = schema.additionalProperties;
  if (extra === false || !options.unknownFields || depth > MAX_DEPTH) return known.map(dropUndefined);
  // Unknown fields: a loose schema passes them on, and so must every converter.
  const unknown = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !(key in properties) && key !== "__proto__"),
    extra === undefined || extra === true || Object.keys(extra).length === 0 ? anyJson : fromJsonSchema(extra, root, options, depth + 1),
    { maxKeys: 2 },
  );
  return fc.tuple(known, unknown).map(([own, more]) => dropUndefined({ ...more, ...own }));
}

function dropUndefined(object: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}
