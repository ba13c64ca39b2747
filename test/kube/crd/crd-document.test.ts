import { describe, expect, it } from "vitest";
import { CrdReadError, readCrds } from "../../../src/kube/crd/crd-document";
import { readCrdFile } from "../../codegen/generated";

describe("readCrds", () => {
  it("reads a v1 CRD's versions, storage version and schemas (YAML anchors included)", () => {
    const [crd] = readCrdFile("test/fixtures/crds/widgets.example.com.yaml");
    expect(crd).toMatchObject({ name: "widgets.example.com", group: "example.com", kind: "Widget", plural: "widgets" });
    expect(crd!.versions.map((v) => [v.name, v.storage])).toEqual([
      ["v1beta1", false],
      ["v1", true],
    ]);
    expect(crd!.versions[1]!.schema).toEqual(crd!.versions[0]!.schema);
    // A property named __proto__ is data, as in the apiserver's Go maps.
    expect(Object.keys(crd!.versions[0]!.schema!.properties!.spec!.properties!)).toContain("__proto__");
  });

  it("reads a v1beta1 CRD's shared spec.validation schema, and a List of CRDs", () => {
    const v1beta1 = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: { name: things.example.com }
spec:
  group: example.com
  names: { plural: things, kind: Thing }
  validation: { openAPIV3Schema: { type: object, properties: { a: { type: string } } } }
  versions: [{ name: v1, served: true, storage: true }, { name: v2, served: true, storage: false }]
`;
    const list = { apiVersion: "v1", kind: "List", items: [{ kind: "ConfigMap" }, ...readCrdsAsJson(v1beta1)] };
    for (const text of [v1beta1, JSON.stringify(list)]) {
      const [crd] = readCrds(text, "things.yaml");
      expect(crd!.versions.map((v) => v.name)).toEqual(["v1", "v2"]);
      expect(crd!.versions[1]!.schema).toEqual({ type: "object", properties: { a: { type: "string" } } });
    }
  });

  it("reads a version that leaves served or storage out as the apiserver stores it: false, never defaulted", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: things.example.com }
spec:
  group: example.com
  names: { plural: things, kind: Thing }
  versions: [{ name: v1, storage: true }, { name: v2, served: true }]
`;
    const [read] = readCrds(crd, "things.yaml");
    expect(read!.versions.map(({ name, served, storage }) => ({ name, served, storage }))).toEqual([
      { name: "v1", served: false, storage: true },
      { name: "v2", served: true, storage: false },
    ]);
  });

  it("reads a v1beta1 CRD's lone spec.version as served and stored, as the apiserver defaults it", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
spec: { group: example.com, version: v1, names: { plural: things, kind: Thing } }
`;
    const [read] = readCrds(crd, "things.yaml");
    expect(read).toMatchObject({ name: "things.example.com", versions: [{ name: "v1", served: true, storage: true }] });
  });

  it("reads the CRDs of a CustomResourceDefinitionList, as the API returns them", () => {
    const list = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinitionList",
      items: readCrdsAsJson(`apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
spec: { group: example.com, version: v1, names: { plural: things, kind: Thing } }
`),
    };
    expect(readCrds(JSON.stringify(list), "list.json").map((crd) => crd.name)).toEqual(["things.example.com"]);
  });

  it("names the file and document when there is nothing to read", () => {
    expect(() => readCrds("kind: ConfigMap\n", "cm.yaml")).toThrow(
      new CrdReadError("cm.yaml: no CustomResourceDefinition in it"),
    );
    expect(() => readCrds("a: [", "bad.yaml")).toThrow(/bad\.yaml: document 1 is not valid YAML/);
    expect(() => readCrds("apiVersion: apiextensions.k8s.io/v2\nkind: CustomResourceDefinition\n", "x.yaml")).toThrow(
      /x\.yaml: document 1: .* apiVersion apiextensions\.k8s\.io\/v2 is not one crdshift knows/,
    );
    expect(() =>
      readCrds(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: { group: a.b, names: { plural: xs } }\n",
        "x.yaml",
      ),
    ).toThrow(/spec\.names\.kind/);
  });
});

function readCrdsAsJson(yaml: string): unknown[] {
  // The same CRD as kubectl -o json would print it inside a List.
  const crd = readCrds(yaml, "x")[0]!;
  return [
    {
      apiVersion: "apiextensions.k8s.io/v1beta1",
      kind: "CustomResourceDefinition",
      metadata: { name: crd.name },
      spec: {
        group: crd.group,
        names: { plural: crd.plural, kind: crd.kind },
        validation: { openAPIV3Schema: crd.versions[0]!.schema },
        versions: crd.versions.map((v) => ({ name: v.name, served: true, storage: v.storage })),
      },
    },
  ];
}
