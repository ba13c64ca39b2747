import { clip, isJsonObject, setField, showValue } from "../json";
import { type Bound, mapValues, OBJECT_ENVELOPE, type OpenApiSchema, shapeOf } from "../kube/crd";

/**
 * A CRD schema read for code generation: the structure the generated zod schema checks, and
 * notes for everything it deliberately does not check (shown as comments beside the field).
 */
export type SchemaNode =
  | { type: "object"; fields: SchemaField[]; nullable: boolean; notes: string[] }
  | { type: "map"; values: SchemaNode; nullable: boolean; notes: string[] }
  | { type: "array"; items: SchemaNode; nullable: boolean; notes: string[] }
  | {
      type: "string" | "boolean" | "integer" | "number" | "int-or-string" | "unknown";
      nullable: boolean;
      notes: string[];
    };

interface SchemaField {
  key: string;
  node: SchemaNode;
  required: boolean;
  /** The first sentence of the CRD's description. */
  summary: string | undefined;
}

/** The tree of one version's `openAPIV3Schema`; the object envelope is crdshift's business. */
export function versionTree(schema: OpenApiSchema | undefined): SchemaNode {
  if (schema === undefined)
    return { type: "object", fields: [], nullable: false, notes: ["the CRD gives no schema for this version"] };
  return readNode(schema, true);
}

function readNode(schema: OpenApiSchema, root = false): SchemaNode {
  const notes = notesOf(schema);
  const nullable = schema.nullable === true;
  switch (shapeOf(schema)) {
    case "object": {
      const required = new Set(schema.required ?? []);
      const fields = Object.entries(schema.properties ?? {})
        .filter(([key]) => !(root && (OBJECT_ENVELOPE as readonly string[]).includes(key)))
        .map(([key, child]) => ({
          key,
          node: readNode(child),
          required: required.has(key),
          summary: summaryOf(child.description),
        }));
      return { type: "object", fields, nullable, notes };
    }
    case "map":
      return { type: "map", values: readNode(mapValues(schema)), nullable, notes };
    case "array":
      return {
        type: "array",
        items: schema.items ? readNode(schema.items) : { type: "unknown", nullable: true, notes: [] },
        nullable,
        notes,
      };
    case "any":
      return { type: "unknown", nullable: true, notes };
    case "string":
    case "boolean":
    case "integer":
    case "number":
    case "int-or-string":
      return { type: shapeOf(schema) as "string", nullable, notes };
  }
}

/** Characters of one constraint kept in a generated comment (src/json/clip.ts says how many more). */
const MAX_NOTE = 160;

/** Everything a stored value was checked against on write, which the zod schema leaves alone. */
function notesOf(schema: OpenApiSchema): string[] {
  const notes: string[] = [];
  if (schema.format) notes.push(`format ${schema.format}`);
  if (Array.isArray(schema.enum)) {
    const shown = schema.enum
      .slice(0, 24)
      .map((value) => showValue(value, MAX_NOTE))
      .join(", ");
    notes.push(`one of ${shown}${schema.enum.length > 24 ? `, … (${schema.enum.length} values)` : ""}`);
  }
  if (schema.default !== undefined) notes.push(`default ${showValue(schema.default, MAX_NOTE)}`);
  const length = range(schema.minLength, schema.maxLength);
  if (length) notes.push(`length ${length}`);
  if (schema.pattern !== undefined) notes.push(`pattern ${clip(schema.pattern, MAX_NOTE)}`);
  if (schema.minimum !== undefined) notes.push(`${schema.exclusiveMinimum ? ">" : ">="} ${schema.minimum}`);
  if (schema.maximum !== undefined) notes.push(`${schema.exclusiveMaximum ? "<" : "<="} ${schema.maximum}`);
  if (schema.multipleOf !== undefined) notes.push(`multiple of ${schema.multipleOf}`);
  const items = range(schema.minItems, schema.maxItems);
  if (items) notes.push(`${items} items`);
  if (schema.uniqueItems) notes.push("unique items");
  const properties = range(schema.minProperties, schema.maxProperties);
  if (properties) notes.push(`${properties} entries`);
  const listType = schema["x-kubernetes-list-type"];
  if (listType) {
    const keys = schema["x-kubernetes-list-map-keys"];
    notes.push(listType === "map" && keys ? `list-type map, keyed by ${keys.join(" + ")}` : `list-type ${listType}`);
  }
  if (schema["x-kubernetes-map-type"]) notes.push(`map-type ${schema["x-kubernetes-map-type"]}`);
  if (schema["x-kubernetes-embedded-resource"])
    notes.push("an embedded Kubernetes object (apiVersion, kind, metadata)");
  if (schema["x-kubernetes-preserve-unknown-fields"]) notes.push("keeps unknown fields");
  for (const junctor of ["anyOf", "oneOf", "allOf"] as const) {
    const alternatives = schema[junctor];
    // The int-or-string marker's own anyOf is the type itself, not a constraint.
    if (!alternatives || (junctor === "anyOf" && schema["x-kubernetes-int-or-string"])) continue;
    notes.push(`${junctor} ${clip(alternatives.map(constraintText).join(" | "), MAX_NOTE)}`);
  }
  if (schema.not) notes.push(`not ${clip(constraintText(schema.not), MAX_NOTE)}`);
  for (const rule of schema["x-kubernetes-validations"] ?? []) {
    const message = rule.message ? ` (${JSON.stringify(clip(oneLine(rule.message), 80))})` : "";
    notes.push(`CEL ${clip(oneLine(rule.rule), MAX_NOTE)}${message}`);
  }
  return notes;
}

/** A junctor alternative in short: `{required: a, b}` or its JSON without descriptions. */
function constraintText(schema: OpenApiSchema): string {
  const keys = Object.keys(schema).filter((key) => key !== "description");
  if (keys.length === 1 && Array.isArray(schema.required)) return `{required ${schema.required.join(", ")}}`;
  return showValue(withoutDescriptions(schema), Number.POSITIVE_INFINITY);
}

/** A schema's JSON without its descriptions, at every depth. */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (!isJsonObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (key !== "description") setField(kept, key, withoutDescriptions(value[key]));
  return kept;
}

function range(min: Bound | undefined, max: Bound | undefined): string | undefined {
  if (min === undefined && max === undefined) return undefined;
  if (min === undefined) return `<= ${max}`;
  if (max === undefined) return `>= ${min}`;
  return min === max ? `${min}` : `${min}-${max}`;
}

/** The description's first sentence, on one line. */
export function summaryOf(description: string | undefined): string | undefined {
  if (!description) return undefined;
  const text = oneLine(description);
  const end = text.search(/\.(\s|$)/);
  return clip(end >= 0 ? text.slice(0, end + 1) : text, 140);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
