import { isJsonObject } from "../../json";
import { patternRefusal } from "./re2-pattern";
import type { OpenApiSchema } from "./schema";

/**
 * What in a version's `openAPIV3Schema` no reader should go on with: a `pattern` Go's regexp
 * does not compile (the apiserver refuses the CRD, in the words returned here), and nesting
 * deeper than crdshift reads. The apiserver decodes JSON nested up to 10,000 levels, each schema
 * level taking two or more of them; crdshift's checks recurse along the schema, so it reads up to
 * MAX_SCHEMA_DEPTH levels and says so beyond, rather than overflowing the stack. The walk is
 * iterative, and a node shared through YAML aliases is walked again only when met deeper.
 */
export const MAX_SCHEMA_DEPTH = 200;

export function schemaRefusal(schema: OpenApiSchema, fieldPath: string): string | undefined {
  const deepest = new Map<object, number>();
  const stack: Array<{ node: OpenApiSchema; path: string; depth: number }> = [
    { node: schema, path: fieldPath, depth: 1 },
  ];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if ((deepest.get(node) ?? 0) >= depth) continue;
    deepest.set(node, depth);
    if (depth > MAX_SCHEMA_DEPTH)
      return `${shortened(path)}: the schema nests more than ${MAX_SCHEMA_DEPTH} levels deep, more than crdshift reads; flatten it (or keep such a subtree under x-kubernetes-preserve-unknown-fields)`;
    if (typeof node.pattern === "string") {
      const refused = patternRefusal(node.pattern, `${path}.pattern`);
      if (refused)
        return `${refused} (the apiserver refuses this CRD; write the pattern in Go's RE2 syntax: no lookaround, no backreferences)`;
    }
    const push = (child: unknown, childPath: string) => {
      if (isJsonObject(child)) stack.push({ node: child as OpenApiSchema, path: childPath, depth: depth + 1 });
    };
    if (isJsonObject(node.properties))
      for (const [key, child] of Object.entries(node.properties)) push(child, `${path}.properties[${key}]`);
    push(node.items, `${path}.items`);
    push(node.additionalProperties, `${path}.additionalProperties`);
    push(node.not, `${path}.not`);
    for (const junctor of ["allOf", "anyOf", "oneOf"] as const) {
      const list = node[junctor];
      if (Array.isArray(list)) list.forEach((child, index) => push(child, `${path}.${junctor}[${index}]`));
    }
  }
  return undefined;
}

/** A path hundreds of levels long, as its start and its end. */
function shortened(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 100)}…${path.slice(-80)}`;
}
