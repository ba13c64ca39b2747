import type * as core from "zod/v4/core";
import { isMapSchema, mapValues, type OpenApiSchema } from "../kube/crd";
import { joinPath } from "../json";

/**
 * A field's path as a finding's key names it: as its version's schema does, not as one object
 * spells it. List indices become `[]`, map keys `{}` (metadata's labels and annotations too), and
 * what the schema does not name (fields kept as unknown) `*`: a dropped map entry is one finding,
 * not one per generated key. Without a schema only indices and metadata's maps are generalized.
 */
export function schemaField(path: string, schema: OpenApiSchema | core.$ZodType | undefined): string {
  const segments = parsePath(path);
  if (segments === undefined) return path;
  const reader = schema === undefined ? undefined : isZod(schema) ? zodReader : crdReader;
  let node: unknown = schema;
  let out = "";
  for (const [i, segment] of segments.entries()) {
    if (typeof segment === "number") {
      out += "[]";
      node = node === undefined || reader === undefined ? undefined : reader.items(node);
      continue;
    }
    if (i === 1 && segments[0] === "metadata" && (segment === "labels" || segment === "annotations"))
      return `metadata.${segment}{}`;
    if (i === 0 && segment === "metadata") {
      out = "metadata";
      node = undefined;
      continue;
    }
    if (reader === undefined || node === undefined) {
      // No schema to read (or metadata's own fields): the name as it is.
      if (reader !== undefined && i > 0 && segments[0] !== "metadata") return `${out}.*`;
      out = joinPath(out, segment);
      continue;
    }
    const child = reader.property(node, segment);
    if (child !== undefined) {
      out = joinPath(out, segment);
      node = child;
      continue;
    }
    const values = reader.values(node);
    if (values !== undefined) {
      out += "{}";
      node = values;
      continue;
    }
    return out === "" ? "*" : `${out}.*`;
  }
  return out || "the object";
}

interface Reader {
  property(node: unknown, key: string): unknown;
  items(node: unknown): unknown;
  values(node: unknown): unknown;
}

const crdReader: Reader = {
  property: (node, key) => {
    const properties = (node as OpenApiSchema).properties;
    return properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
  },
  items: (node) => (node as OpenApiSchema).items,
  values: (node) => (isMapSchema(node as OpenApiSchema) ? mapValues(node as OpenApiSchema) : undefined),
};

interface ZodDef {
  type: string;
  shape?: Record<string, core.$ZodType>;
  element?: core.$ZodType;
  valueType?: core.$ZodType;
  innerType?: core.$ZodType;
  in?: core.$ZodType;
  options?: core.$ZodType[];
}

// Through wrappers (optional, nullable, default, pipe…) to the schema that holds fields; the first
// option of a union that has the field.
function unwrap(node: unknown): ZodDef {
  let def = (node as core.$ZodType)._zod.def as unknown as ZodDef;
  for (let depth = 0; depth < 32; depth++) {
    const inner = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
    if (inner === undefined) break;
    def = inner._zod.def as unknown as ZodDef;
  }
  return def;
}

const zodReader: Reader = {
  property: (node, key) => {
    const def = unwrap(node);
    if (def.type === "union") {
      for (const option of def.options ?? []) {
        const found = zodReader.property(option, key);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    return def.type === "object" && def.shape && Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
  },
  items: (node) => {
    const def = unwrap(node);
    return def.type === "array" ? def.element : undefined;
  },
  values: (node) => {
    const def = unwrap(node);
    return def.type === "record" ? def.valueType : undefined;
  },
};

function isZod(schema: OpenApiSchema | core.$ZodType): schema is core.$ZodType {
  return typeof (schema as { _zod?: unknown })._zod === "object";
}

/** `spec.rules[0]["a.b"].name` as its keys and indices; undefined where it is not such a path. */
function parsePath(path: string): Array<string | number> | undefined {
  if (path === "" || path === "the object") return [];
  const segments: Array<string | number> = [];
  const pattern = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;
  let rest = path;
  while (rest !== "") {
    const match = pattern.exec(rest);
    if (!match) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3]!) as string);
    rest = rest.slice(match[0].length);
  }
  return segments;
}

/** The field a violation's words start with (`spec.ports[0].name: …`), up to the first `: ` outside brackets and quotes. */
export function violationPath(text: string): string {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === ":" && depth === 0 && text[i + 1] === " ") return text.slice(0, i);
  }
  return text;
}

/** A violation's rule without its values: `is not one of the enum values`, `expected string`… */
export function violationRule(text: string): string {
  const rule = text.slice(violationPath(text).length + 2);
  return rule
    .replace(/"(?:[^"\\]|\\.)*"/g, "…")
    .replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi, "…")
    .replace(/[[{].*[\]}]/g, "…")
    .slice(0, 80);
}

/** The path a round trip's difference starts with (`spec.ports[0] was …`), or "the object". */
export function leadingPath(text: string): string {
  const match =
    /^(?:[A-Za-z_$][\w$-]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])(?:\.[A-Za-z_$][\w$-]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*/.exec(
      text,
    );
  return match && !text.startsWith("the object") ? match[0] : "the object";
}
