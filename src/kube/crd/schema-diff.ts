import { joinPath } from "../../json";
import { keepsUnknownFields, mapValues, OBJECT_ENVELOPE, type OpenApiSchema, type Shape, shapeOf } from "./schema";

/** How two versions' schemas differ, as field paths (`spec.rules[*].port`, `spec.labels.*`). */
export interface SchemaDiff {
  /** Fields only the first schema has (and the second would prune). */
  onlyA: string[];
  onlyB: string[];
  /** Fields both have, holding different kinds of values. */
  changed: Array<{ path: string; a: string; b: string }>;
}

/**
 * The fields a converter between two versions has to handle: those one side has and the other
 * would drop, and those whose type changed. Only the topmost differing field is named (a whole
 * object present on one side counts once). A side that keeps unknown fields at that place keeps
 * the other side's extra fields too, so they are not listed. A node of no declared type (any
 * value) against a typed one counts as changed: the typed side may not hold what the other has.
 * Value constraints (enum, lengths, patterns, CEL) are not compared.
 */
export function diffSchemas(a: OpenApiSchema | undefined, b: OpenApiSchema | undefined): SchemaDiff {
  const diff: SchemaDiff = { onlyA: [], onlyB: [], changed: [] };
  walk(
    a ?? { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    b ?? { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    "",
    true,
    diff,
  );
  return diff;
}

export function isSameStructure(diff: SchemaDiff): boolean {
  return diff.onlyA.length === 0 && diff.onlyB.length === 0 && diff.changed.length === 0;
}

function walk(a: OpenApiSchema, b: OpenApiSchema, path: string, root: boolean, diff: SchemaDiff): void {
  const sa = shapeOf(a);
  const sb = shapeOf(b);
  if (sa === "any" && sb === "any") return;
  if (sa !== sb || Boolean(a.nullable) !== Boolean(b.nullable)) {
    diff.changed.push({ path: path || "the object", a: describe(sa, a), b: describe(sb, b) });
    return;
  }
  switch (sa) {
    case "array":
      if (a.items && b.items) walk(a.items, b.items, `${path}[*]`, false, diff);
      return;
    case "map":
      walk(mapValues(a), mapValues(b), `${path}.*`, false, diff);
      return;
    case "object": {
      const pa = a.properties ?? {};
      const pb = b.properties ?? {};
      const skip = (key: string) => root && (OBJECT_ENVELOPE as readonly string[]).includes(key);
      for (const key of Object.keys(pa)) {
        if (skip(key)) continue;
        if (Object.hasOwn(pb, key)) walk(pa[key]!, pb[key]!, joinPath(path, key), false, diff);
        else if (!keepsUnknownFields(b)) diff.onlyA.push(joinPath(path, key));
      }
      for (const key of Object.keys(pb)) {
        if (skip(key) || Object.hasOwn(pa, key)) continue;
        if (!keepsUnknownFields(a)) diff.onlyB.push(joinPath(path, key));
      }
      return;
    }
    default:
      return;
  }
}

function describe(shape: Shape, schema: OpenApiSchema): string {
  const name =
    shape === "any"
      ? "any value"
      : shape === "map"
        ? "a map"
        : shape === "int-or-string"
          ? "an int-or-string"
          : shape === "object" || shape === "array" || shape === "integer"
            ? `an ${shape}`
            : `a ${shape}`;
  return schema.nullable ? `${name} (nullable)` : name;
}
