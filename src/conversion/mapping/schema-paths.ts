import type { Schema } from "../converter";
import type { Segment } from "./field-paths";

/**
 * Whether a version's zod schema declares a field path, so that a mapping naming a field that
 * is not there (a typo, or the other version's name) fails when the module loads. "open" where
 * the schema cannot tell: a map, `z.unknown()`, a union, a custom schema, and apiVersion, kind
 * and metadata, which generated schemas leave to crdshift.
 */
export type PathVerdict = "declared" | "missing" | "open";

interface Def {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  in?: Schema;
}

const ENVELOPE = new Set(["apiVersion", "kind", "metadata"]);

export function schemaPath(schema: Schema, segments: Segment[]): PathVerdict {
  if (typeof segments[0] === "string" && ENVELOPE.has(segments[0])) return "open";
  let current: Schema | undefined = schema;
  for (const segment of segments) {
    const def = unwrap(current);
    if (def === undefined) return "open";
    if (typeof segment === "string") {
      if (def.type !== "object" || def.shape === undefined) return def.type === "object" ? "open" : verdictOf(def);
      if (!Object.hasOwn(def.shape, segment)) return "missing";
      current = def.shape[segment];
    } else {
      if (def.type !== "array") return verdictOf(def);
      current = def.element;
    }
  }
  return "declared";
}

/** A path into a map or unknown value cannot be checked; one into a string or number can't exist. */
function verdictOf(def: Def): PathVerdict {
  return ["string", "number", "int", "bigint", "boolean", "array", "object"].includes(def.type) ? "missing" : "open";
}

/** The definition under optional, nullable, default and pipe wrappers. */
function unwrap(schema: Schema | undefined): Def | undefined {
  let def = (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
  for (let i = 0; def !== undefined && i < 16; i++) {
    if (["optional", "nullable", "default", "prefault", "nonoptional", "readonly"].includes(def.type)) {
      def = (def.innerType as { _zod?: { def?: Def } } | undefined)?._zod?.def;
    } else if (def.type === "pipe") {
      def = (def.in as { _zod?: { def?: Def } } | undefined)?._zod?.def;
    } else return def;
  }
  return def;
}
