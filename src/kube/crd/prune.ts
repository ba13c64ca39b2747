import { setField } from "../../json";
import { keepsUnknownFields, mapValues, OBJECT_ENVELOPE, type OpenApiSchema } from "./schema";

/**
 * What the apiserver keeps of an object a webhook returns, or an object it stores: fields the
 * version's structural schema does not name are dropped (unless the node preserves unknown
 * fields), and so are nulls where the schema does not allow them. The envelope (`apiVersion`,
 * `kind`, `metadata`) of the object and of embedded resources is kept as it is. A copy is
 * returned; keys such as `__proto__` are copied as data. Defaults are not applied.
 */
export function pruneLikeApiserver(value: unknown, schema: OpenApiSchema | undefined): unknown {
  if (schema === undefined) return value;
  return prune(value, schema, true);
}

function prune(value: unknown, schema: OpenApiSchema, envelope: boolean): unknown {
  if (Array.isArray(value)) {
    return schema.items
      ? value.map((item) => prune(item, schema.items!, schema.items!["x-kubernetes-embedded-resource"] === true))
      : value.slice();
  }
  if (typeof value !== "object" || value === null) return value;
  const object = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const properties = schema.properties;
  const values =
    schema.additionalProperties !== undefined && schema.additionalProperties !== false ? mapValues(schema) : undefined;
  const keepUnknown = keepsUnknownFields(schema);
  for (const key of Object.keys(object)) {
    const field = object[key];
    if (envelope && (OBJECT_ENVELOPE as readonly string[]).includes(key)) {
      setField(out, key, field);
      continue;
    }
    const fieldSchema = properties?.[key] !== undefined && Object.hasOwn(properties, key) ? properties[key] : values;
    if (fieldSchema === undefined) {
      if (keepUnknown) setField(out, key, field);
      continue;
    }
    if (field === null && !fieldSchema.nullable) continue;
    setField(out, key, prune(field, fieldSchema, fieldSchema["x-kubernetes-embedded-resource"] === true));
  }
  return out;
}
