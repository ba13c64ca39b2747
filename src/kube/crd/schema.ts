/**
 * A CRD version's `openAPIV3Schema` (apiextensions `JSONSchemaProps`), as far as crdshift reads
 * it. Conversion webhooks need structural schemas, so every node has a `type` unless it is
 * int-or-string or preserves unknown fields, `properties` and `additionalProperties` never meet,
 * and `anyOf`/`oneOf`/`allOf`/`not` only add value constraints to the structure above them.
 */
export interface OpenApiSchema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
  enum?: unknown[];
  nullable?: boolean;
  default?: unknown;
  pattern?: string;
  minLength?: Bound;
  maxLength?: Bound;
  minimum?: Bound;
  maximum?: Bound;
  /** OpenAPI 3.0: a flag on `minimum`/`maximum`, not a bound of its own. */
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: Bound;
  minItems?: Bound;
  maxItems?: Bound;
  uniqueItems?: boolean;
  minProperties?: Bound;
  maxProperties?: Bound;
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  allOf?: OpenApiSchema[];
  not?: OpenApiSchema;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: string;
  "x-kubernetes-validations"?: CelRule[];
}

/**
 * A number in a schema, read as the webhook reads JSON: a number where a double holds it
 * exactly, a bigint beyond ±2^53 (an int64 bound such as 9223372036854775807, which a double
 * would round up past the largest int64).
 */
export type Bound = number | bigint;

/** A count bound (a length, items, entries) as a number: one beyond 2^53 bounds nothing that fits in memory. */
export function countBound(bound: Bound | undefined): number | undefined {
  return typeof bound === "bigint" ? Number(bound) : bound;
}

interface CelRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
}

/** What a node holds, structurally: what a stored value at that place is guaranteed to be. */
export type Shape = "object" | "map" | "array" | "string" | "integer" | "number" | "boolean" | "int-or-string" | "any";

export function shapeOf(schema: OpenApiSchema): Shape {
  if (schema["x-kubernetes-int-or-string"]) return "int-or-string";
  switch (schema.type) {
    case "object":
      return isMapSchema(schema) ? "map" : "object";
    case "array":
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return schema.type;
    default:
      // No type: only preserve-unknown-fields (or embedded resource) nodes may omit it; anything goes.
      return "any";
  }
}

/** An object whose keys are data (`additionalProperties` with a schema), like a Go map. */
export function isMapSchema(schema: OpenApiSchema): boolean {
  return (
    schema.type === "object" &&
    !schema.properties &&
    schema.additionalProperties !== undefined &&
    schema.additionalProperties !== false
  );
}

/** The schema of a map's values; `true` (any value) reads as the empty schema. */
export function mapValues(schema: OpenApiSchema): OpenApiSchema {
  const values = schema.additionalProperties;
  return typeof values === "object" ? values : {};
}

/** Whether fields a schema does not name survive the apiserver's pruning at this node. */
export function keepsUnknownFields(schema: OpenApiSchema): boolean {
  return schema["x-kubernetes-preserve-unknown-fields"] === true;
}

/** The top-level fields every object has, which the apiserver itself manages. */
export const OBJECT_ENVELOPE = ["apiVersion", "kind", "metadata"] as const;
