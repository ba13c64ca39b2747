import { type Crd, readCrds } from "../../src/kube/crd";

/**
 * A namespaced CRD of two versions, v1 (stored) and v2, whose schemas differ only in `spec`:
 * the tests of the check name just what they vary. Each spec is an OpenAPI schema object;
 * `top` adds to a version's whole-object schema (its `required`, say).
 */
export function twoVersionCrd(
  names: { group: string; kind: string; plural: string },
  v1: object,
  v2: object,
  top: { v1?: object; v2?: object } = {},
): Crd {
  const version = (name: "v1" | "v2", spec: object, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: "object", properties: { spec }, ...top[name] } },
  });
  const manifest = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${names.plural}.${names.group}` },
    spec: {
      group: names.group,
      scope: "Namespaced",
      names: { kind: names.kind, plural: names.plural, singular: names.kind.toLowerCase() },
      versions: [version("v1", v1, true), version("v2", v2, false)],
    },
  };
  const [crd] = readCrds(JSON.stringify(manifest), `${names.plural}.${names.group}.json`);
  return crd!;
}
