import { joinPath } from "./field-path";
import { mapValues, type OpenApiSchema } from "./schema";

/**
 * Whether a value passes a CRD schema's OpenAPI checks as the apiserver runs them on writes:
 * type (an integral number passes as an integer, an integer as a number; int-or-string), nullable,
 * enum, required, properties and map values, items, string lengths in code points (Go counts
 * runes), pattern (read as a JavaScript regular expression, unanchored like Go's), numeric bounds,
 * multipleOf, item and entry counts, uniqueness (uniqueItems, list-type set and map keys), and
 * anyOf/oneOf/allOf/not. Not checked: format and CEL rules. `bigint` counts as an integer.
 */
export function matchesSchema(value: unknown, schema: OpenApiSchema): boolean {
  return firstViolation(value, schema, "") === undefined;
}

/** The path and reason of the first check the value fails, or undefined. */
export function firstViolation(value: unknown, schema: OpenApiSchema, path: string): string | undefined {
  const at = path || "the object";
  if (value === null) return schema.nullable ? undefined : `${at}: null is not allowed`;
  const typeError = checkType(value, schema);
  if (typeError) return `${at}: ${typeError}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value)))
    return `${at}: not one of the enum values`;
  const own = checkOwn(value, schema, path);
  if (own) return own;
  for (const sub of schema.allOf ?? []) {
    const failed = firstViolation(value, sub, path);
    if (failed) return failed;
  }
  if (schema.anyOf && !schema["x-kubernetes-int-or-string"] && !schema.anyOf.some((sub) => matchesSchema(value, sub)))
    return `${at}: matches none of anyOf`;
  if (schema.anyOf && schema["x-kubernetes-int-or-string"]) {
    // The marker's anyOf is [integer, string]; other alternatives (rare) still count.
    const rest = schema.anyOf.filter(
      (sub) => !(Object.keys(sub).length === 1 && (sub.type === "integer" || sub.type === "string")),
    );
    if (rest.length > 0 && !rest.some((sub) => matchesSchema(value, sub))) return `${at}: matches none of anyOf`;
  }
  if (schema.oneOf && schema.oneOf.filter((sub) => matchesSchema(value, sub)).length !== 1)
    return `${at}: does not match exactly one of oneOf`;
  if (schema.not && matchesSchema(value, schema.not)) return `${at}: matches the schema under not`;
  return undefined;
}

function checkType(value: unknown, schema: OpenApiSchema): string | undefined {
  if (schema["x-kubernetes-int-or-string"])
    return typeof value === "string" || isInteger(value) ? undefined : "not an integer or a string";
  switch (schema.type) {
    case undefined:
      return undefined;
    case "object":
      return typeof value === "object" && !Array.isArray(value) && typeof value !== "bigint"
        ? undefined
        : "not an object";
    case "array":
      return Array.isArray(value) ? undefined : "not an array";
    case "string":
      return typeof value === "string" ? undefined : "not a string";
    case "boolean":
      return typeof value === "boolean" ? undefined : "not a boolean";
    case "integer":
      return isInteger(value) ? undefined : "not an integer";
    case "number":
      return typeof value === "bigint" || (typeof value === "number" && Number.isFinite(value))
        ? undefined
        : "not a number";
    default:
      return `has unknown type ${schema.type}`;
  }
}

function checkOwn(value: unknown, schema: OpenApiSchema, path: string): string | undefined {
  const at = path || "the object";
  if (typeof value === "string") {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) return `${at}: shorter than ${schema.minLength}`;
    if (schema.maxLength !== undefined && length > schema.maxLength) return `${at}: longer than ${schema.maxLength}`;
    if (schema.pattern !== undefined) {
      const regex = patternRegExp(schema.pattern);
      if (regex && !regex.test(value)) return `${at}: does not match the pattern ${schema.pattern}`;
    }
  }
  if (typeof value === "number" || typeof value === "bigint") {
    const n = Number(value);
    if (schema.minimum !== undefined && (schema.exclusiveMinimum ? n <= schema.minimum : n < schema.minimum))
      return `${at}: below the minimum`;
    if (schema.maximum !== undefined && (schema.exclusiveMaximum ? n >= schema.maximum : n > schema.maximum))
      return `${at}: above the maximum`;
    if (schema.multipleOf !== undefined && typeof value === "number" && !Number.isInteger(value / schema.multipleOf))
      return `${at}: not a multiple of ${schema.multipleOf}`;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      return `${at}: fewer than ${schema.minItems} items`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      return `${at}: more than ${schema.maxItems} items`;
    const identity = itemIdentity(schema);
    if (identity) {
      const seen = new Set(value.map(identity));
      if (seen.size !== value.length) return `${at}: items are not unique`;
    }
    if (schema.items) {
      for (const [index, item] of value.entries()) {
        const failed = firstViolation(item, schema.items, `${path}[${index}]`);
        if (failed) return failed;
      }
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (schema.minProperties !== undefined && keys.length < schema.minProperties)
      return `${at}: fewer than ${schema.minProperties} entries`;
    if (schema.maxProperties !== undefined && keys.length > schema.maxProperties)
      return `${at}: more than ${schema.maxProperties} entries`;
    for (const key of schema.required ?? []) if (!Object.hasOwn(object, key)) return `${joinPath(path, key)}: required`;
    const values =
      schema.additionalProperties !== undefined && schema.additionalProperties !== false
        ? mapValues(schema)
        : undefined;
    for (const key of keys) {
      const fieldSchema = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : values;
      if (!fieldSchema) continue;
      const failed = firstViolation(object[key], fieldSchema, joinPath(path, key));
      if (failed) return failed;
    }
  }
  return undefined;
}

/** How two items of a list are told apart, when they must be: a set's whole value, a map's keys. */
export function itemIdentity(schema: OpenApiSchema): ((item: unknown) => string) | undefined {
  const keys = schema["x-kubernetes-list-map-keys"];
  if (schema["x-kubernetes-list-type"] === "map" && keys) {
    return (item) => canonicalJson(keys.map((key) => (item as Record<string, unknown> | null)?.[key] ?? null));
  }
  if (schema["x-kubernetes-list-type"] === "set" || schema.uniqueItems) return canonicalJson;
  return undefined;
}

const patterns = new Map<string, RegExp | undefined>();

/** A CRD pattern (Go RE2) as a JavaScript RegExp, or undefined when JavaScript cannot read it. */
export function patternRegExp(pattern: string): RegExp | undefined {
  if (!patterns.has(pattern)) {
    let regex: RegExp | undefined;
    try {
      regex = new RegExp(pattern, "u");
    } catch {
      try {
        regex = new RegExp(pattern);
      } catch {
        regex = undefined;
      }
    }
    patterns.set(pattern, regex);
  }
  return patterns.get(pattern);
}

function isInteger(value: unknown): boolean {
  return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** JSON with sorted keys, bigint written as its digits: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
