import { describe, expect, it } from "vitest";
import type { OpenApiSchema } from "../../../src/kube/crd/schema";
import { diffSchemas, isSameStructure } from "../../../src/kube/crd/schema-diff";
import { readCrdFile } from "../../codegen/generated";

const object = (properties: Record<string, OpenApiSchema>, extra: OpenApiSchema = {}): OpenApiSchema => ({
  type: "object",
  properties,
  ...extra,
});

describe("diffSchemas", () => {
  it("names the fields on one side only, and the ones whose type changed", () => {
    const [gadget] = readCrdFile("test/fixtures/crds/gadgets.example.com.yaml");
    const [v1, v2] = gadget!.versions.map((v) => v.schema);
    expect(diffSchemas(v1, v2)).toEqual({
      onlyA: ["spec.hostPort"],
      onlyB: ["spec.host", "spec.port", "status"],
      changed: [{ path: "spec.size", a: "a string", b: "an integer" }],
    });
  });

  it("finds nothing between a version and its copy, nor in the envelope", () => {
    const [widget] = readCrdFile("test/fixtures/crds/widgets.example.com.yaml");
    expect(isSameStructure(diffSchemas(widget!.versions[0]!.schema, widget!.versions[1]!.schema))).toBe(true);
    expect(isSameStructure(diffSchemas(object({ metadata: { type: "object" } }), object({})))).toBe(true);
  });

  it("walks into items and map values, and names the topmost field only", () => {
    const a = object({
      rules: { type: "array", items: object({ port: { type: "integer" }, deep: object({ x: { type: "string" } }) }) },
      labels: { type: "object", additionalProperties: object({ a: { type: "string" } }) },
    });
    const b = object({
      rules: { type: "array", items: object({ port: { type: "string" } }) },
      labels: { type: "object", additionalProperties: object({}) },
    });
    expect(diffSchemas(a, b)).toEqual({
      onlyA: ["rules[*].deep", "labels.*.a"],
      onlyB: [],
      changed: [{ path: "rules[*].port", a: "an integer", b: "a string" }],
    });
  });

  it("lists nothing the other side keeps as an unknown field; any value against a typed one changed", () => {
    expect(
      diffSchemas(object({ a: { type: "string" } }), object({}, { "x-kubernetes-preserve-unknown-fields": true }))
        .onlyA,
    ).toEqual([]);
    expect(
      diffSchemas(object({ a: { "x-kubernetes-preserve-unknown-fields": true } }), object({ a: { type: "string" } }))
        .changed,
    ).toEqual([{ path: "a", a: "any value", b: "a string" }]);
    expect(
      diffSchemas(object({ a: { type: "string", nullable: true } }), object({ a: { type: "string" } })).changed,
    ).toEqual([{ path: "a", a: "a string (nullable)", b: "a string" }]);
    expect(diffSchemas(object({ "a.b": { type: "string" } }), object({})).onlyA).toEqual(['["a.b"]']);
  });
});
