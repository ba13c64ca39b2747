import { joinPath, showValue } from "../../json";
import { formatProblem, numberFormatProblem } from "./formats";
import { patternMatches, patternSyntaxError } from "./re2-pattern";
import { type Bound, mapValues, type OpenApiSchema } from "./schema";

/**
 * Whether a value passes a CRD schema's OpenAPI checks as the apiserver runs them on writes:
 * type (an integral number passes as an integer, an integer as a number; int-or-string), nullable,
 * enum, required, properties and map values, items, string lengths in code points (Go counts
 * runes), pattern (Go's RE2, unanchored, in linear time: re2-pattern.ts), numeric bounds,
 * multipleOf, item and entry counts, uniqueness (uniqueItems, list-type set and map keys), and
 * anyOf/oneOf/allOf/not, and the formats the apiserver checks (formats.ts). Not checked:
 * CEL rules (cel-rules.ts lists them). `bigint` counts as an integer.
 */
export function matchesSchema(value: unknown, schema: OpenApiSchema): boolean {
  return firstViolation(value, schema, "") === undefined;
}

/**
 * The first check the value fails, as `path: what it is, what the schema asks`
 * (`spec.policy: "always" is not one of the enum values ["Always","Never"]`), or undefined.
 */
export function firstViolation(
  value: unknown,
  schema: OpenApiSchema,
  path: string,
  options: ViolationOptions = {},
): string | undefined {
  const at = path || "the object";
  if (value === null) return schema.nullable ? undefined : `${at}: null, in a field that is not nullable`;
  const typeError = checkType(value, schema);
  if (typeError) return `${at}: expected ${typeError}, received ${showValue(value)}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value)))
    return `${at}: ${showValue(value)} is not one of the enum values ${showValue(schema.enum)}`;
  const own = checkOwn(value, schema, path, options);
  if (own) return own;
  for (const sub of schema.allOf ?? []) {
    const failed = firstViolation(value, sub, path, options);
    if (failed) return failed;
  }
  if (schema.anyOf && !schema["x-kubernetes-int-or-string"] && !schema.anyOf.some((sub) => matchesSchema(value, sub)))
    return `${at}: ${showValue(value)} matches none of anyOf`;
  if (schema.anyOf && schema["x-kubernetes-int-or-string"]) {
    // The marker's anyOf is [integer, string]; other alternatives (rare) still count.
    const rest = schema.anyOf.filter(
      (sub) => !(Object.keys(sub).length === 1 && (sub.type === "integer" || sub.type === "string")),
    );
    if (rest.length > 0 && !rest.some((sub) => matchesSchema(value, sub)))
      return `${at}: ${showValue(value)} matches none of anyOf`;
  }
  if (schema.oneOf && schema.oneOf.filter((sub) => matchesSchema(value, sub)).length !== 1)
    return `${at}: ${showValue(value)} does not match exactly one of oneOf`;
  if (schema.not && matchesSchema(value, schema.not)) return `${at}: ${showValue(value)} matches the schema under not`;
  return undefined;
}

function checkType(value: unknown, schema: OpenApiSchema): string | undefined {
  if (schema["x-kubernetes-int-or-string"])
    return typeof value === "string" || isInteger(value) ? undefined : "an integer or a string";
  switch (schema.type) {
    case undefined:
      return undefined;
    case "object":
      return typeof value === "object" && !Array.isArray(value) && typeof value !== "bigint" ? undefined : "an object";
    case "array":
      return Array.isArray(value) ? undefined : "an array";
    case "string":
      return typeof value === "string" ? undefined : "a string";
    case "boolean":
      return typeof value === "boolean" ? undefined : "a boolean";
    case "integer":
      return isInteger(value) ? undefined : "an integer";
    case "number":
      return typeof value === "bigint" || (typeof value === "number" && Number.isFinite(value))
        ? undefined
        : "a number";
    default:
      return `the unknown type ${schema.type}`;
  }
}

export interface ViolationOptions {
  /** Required fields may be missing: a partial object, as server-side apply sends, is not stored as it is. */
  partial?: boolean;
  /** Whether a required field may be missing at this path (a kind's declared gap); asked only where one is. */
  mayLack?: (path: string) => boolean;
}

function checkOwn(value: unknown, schema: OpenApiSchema, path: string, options: ViolationOptions): string | undefined {
  const at = path || "the object";
  if (typeof value === "string") {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength)
      return `${at}: ${showValue(value)} is shorter than minLength ${schema.minLength}`;
    if (schema.maxLength !== undefined && length > schema.maxLength)
      return `${at}: ${showValue(value)} is longer than maxLength ${schema.maxLength}`;
    if (schema.pattern !== undefined) {
      // The CRD reader refuses such a pattern as the apiserver does; a schema built by hand may hold one.
      const refused = patternSyntaxError(schema.pattern);
      if (refused) return `${at}: the pattern ${schema.pattern} is not one Go's regexp compiles: ${refused}`;
      if (!patternMatches(schema.pattern, value))
        return `${at}: ${showValue(value)} does not match the pattern ${schema.pattern}`;
    }
    const badFormat = schema.format === undefined ? undefined : formatProblem(schema.format, value);
    if (badFormat) return `${at}: ${showValue(value)} ${badFormat}`;
  }
  if (typeof value === "number" || typeof value === "bigint") {
    // Compared as they are: `<` between a bigint and a number compares their exact values, so
    // an int64 bound (a bigint beyond 2^53) is held exactly, not rounded to a double.
    const { minimum, maximum } = schema;
    if (minimum !== undefined && (schema.exclusiveMinimum ? value <= minimum : value < minimum))
      return `${at}: ${showValue(value)} is below the minimum ${minimum}${schema.exclusiveMinimum ? " (exclusive)" : ""}`;
    if (maximum !== undefined && (schema.exclusiveMaximum ? value >= maximum : value > maximum))
      return `${at}: ${showValue(value)} is above the maximum ${maximum}${schema.exclusiveMaximum ? " (exclusive)" : ""}`;
    if (schema.multipleOf !== undefined && !isMultipleOf(value, schema.multipleOf))
      return `${at}: ${showValue(value)} is not a multiple of ${schema.multipleOf}`;
    const badFormat = numberFormatProblem(schema, value);
    if (badFormat) return `${at}: ${showValue(value)} ${badFormat}`;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      return `${at}: ${value.length} items, fewer than minItems ${schema.minItems}`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      return `${at}: ${value.length} items, more than maxItems ${schema.maxItems}`;
    const identity = itemIdentity(schema);
    if (identity) {
      const seen = new Set(value.map(identity));
      if (seen.size !== value.length) return `${at}: ${showValue(value)} has duplicate items${duplicateWhy(schema)}`;
    }
    if (schema.items) {
      for (const [index, item] of value.entries()) {
        const failed = firstViolation(item, schema.items, `${path}[${index}]`, options);
        if (failed) return failed;
      }
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (schema.minProperties !== undefined && keys.length < schema.minProperties)
      return `${at}: ${keys.length} entries, fewer than minProperties ${schema.minProperties}`;
    if (schema.maxProperties !== undefined && keys.length > schema.maxProperties)
      return `${at}: ${keys.length} entries, more than maxProperties ${schema.maxProperties}`;
    // A field with a default is never missing: the apiserver defaults before it validates (and on reads).
    for (const key of options.partial ? [] : (schema.required ?? []))
      if (
        !Object.hasOwn(object, key) &&
        schema.properties?.[key]?.default === undefined &&
        !options.mayLack?.(joinPath(path, key))
      )
        return `${joinPath(path, key)}: missing, but required`;
    const values =
      schema.additionalProperties !== undefined && schema.additionalProperties !== false
        ? mapValues(schema)
        : undefined;
    for (const key of keys) {
      const fieldSchema = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : values;
      if (!fieldSchema) continue;
      const failed = firstViolation(object[key], fieldSchema, joinPath(path, key), options);
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

function duplicateWhy(schema: OpenApiSchema): string {
  const keys = schema["x-kubernetes-list-map-keys"];
  if (schema["x-kubernetes-list-type"] === "map" && keys) return ` (list-type map, keys ${keys.join(", ")})`;
  return schema["x-kubernetes-list-type"] === "set" ? " (list-type set)" : " (uniqueItems)";
}

/** Whether `value` is a whole multiple of `step`: exactly for integers (bigint ones too), else as doubles. */
export function isMultipleOf(value: number | bigint, step: Bound): boolean {
  if (isInteger(value) && isInteger(step) && Number(step) !== 0) return BigInt(value) % BigInt(step) === 0n;
  return Number.isInteger(Number(value) / Number(step));
}

function isInteger(value: unknown): value is number | bigint {
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
