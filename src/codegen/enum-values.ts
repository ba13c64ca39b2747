import { OBJECT_ENVELOPE, type OpenApiSchema, shapeOf } from "../kube/crd";

/**
 * The string enums of one version's schema, by field path as `mapping()` names fields (dots,
 * `[]` for each item of an array): `{ "spec.mode": ["Small", "Large"] }`. The generated
 * schemas keep checking `z.string()` (objects stored before the CRD tightened an enum must still
 * convert); these values give the author's code literal types and mapping() its checks. Enums
 * under a map's values have no such path and are left out, as are enums that are not all strings.
 */
export function enumValues(schema: OpenApiSchema | undefined): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  if (schema !== undefined) walk(schema, "", found, true);
  return found;
}

function walk(schema: OpenApiSchema, path: string, found: Record<string, string[]>, root = false): void {
  if (
    path !== "" &&
    Array.isArray(schema.enum) &&
    schema.enum.length > 0 &&
    schema.enum.every((value) => typeof value === "string")
  ) {
    found[path] = [...new Set(schema.enum as string[])];
  }
  switch (shapeOf(schema)) {
    case "object":
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        if (root && (OBJECT_ENVELOPE as readonly string[]).includes(key)) continue;
        // A key with a dot or brackets cannot be written as a path.
        if (/[.[\]]/.test(key)) continue;
        walk(child, path ? `${path}.${key}` : key, found);
      }
      return;
    case "array":
      if (schema.items) walk(schema.items, `${path}[]`, found);
      return;
    default:
      return;
  }
}
