import type { Crd } from "../../src/kube/crd/crd-document";
import type { OpenApiSchema } from "../../src/kube/crd/schema";

/**
 * A CRD nested `depth` objects deep (objects, lists of objects and maps of objects in turn),
 * deeper than cert-manager's Issuer (18), where a naive zod type would exceed tsc's
 * instantiation depth (TS2589).
 */
export function deepCrd(depth: number): Crd {
  let node: OpenApiSchema = { type: "object", properties: { leaf: { type: "string" }, count: { type: "integer" } } };
  for (let level = depth; level > 0; level--) {
    const child =
      level % 3 === 0
        ? { type: "array", items: node }
        : level % 3 === 1
          ? { type: "object", additionalProperties: node }
          : node;
    node = {
      type: "object",
      properties: { [`level${level}`]: child, name: { type: "string" }, enabled: { type: "boolean", nullable: true } },
    };
  }
  const schema: OpenApiSchema = { type: "object", properties: { spec: node } };
  return {
    name: "deeps.example.com",
    group: "example.com",
    kind: "Deep",
    plural: "deeps",
    versions: [
      { name: "v1", served: true, storage: true, schema },
      { name: "v1alpha1", served: true, storage: false, schema },
    ],
  };
}
