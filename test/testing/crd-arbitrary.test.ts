import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OpenApiSchema } from "../../src/kube/crd/schema";
import { firstViolation } from "../../src/kube/crd/value-check";
import { crdObjectArbitrary, crdValueArbitrary } from "../../src/check/crd-arbitrary";
import { deepCrd } from "../codegen/deep-crd";
import { readCrdFile } from "../codegen/generated";

const FILES = [
  "test/fixtures/crds/widgets.example.com.yaml",
  "test/fixtures/crds/gadgets.example.com.yaml",
  "examples/crds/crontabs.example.com.yaml",
  "examples/crds/crontabs.stable.example.com.yaml",
];
const crds = [...FILES.flatMap(readCrdFile), deepCrd(20)];

describe("crdObjectArbitrary", () => {
  it("makes objects the CRD's own checks accept (read independently: value-check.ts)", () => {
    for (const crd of crds) {
      for (const version of crd.versions) {
        fc.assert(
          fc.property(crdObjectArbitrary(version.schema), (body) => {
            const object = {
              apiVersion: `${crd.group}/${version.name}`,
              kind: crd.kind,
              metadata: { name: "a" },
              ...body,
            };
            expect(firstViolation(object, version.schema!, ""), `${crd.name} ${version.name}`).toBeUndefined();
          }),
          { numRuns: 100 },
        );
      }
    }
  });

  it("reaches what a stricter registry would trip on: int64 beyond 2^53, astral characters, __proto__ keys, nulls, partial objects", () => {
    const widget = readCrdFile("test/fixtures/crds/widgets.example.com.yaml")[0]!.versions[1]!.schema;
    const samples = fc.sample(crdObjectArbitrary(widget), { numRuns: 600, seed: 42 }) as Array<{
      spec: Record<string, any>;
    }>;
    const specs = samples.map((sample) => sample.spec);
    expect(specs.some((spec) => typeof spec.bytes === "bigint")).toBe(true);
    expect(specs.some((spec) => typeof spec.size === "bigint")).toBe(false); // bounded to 100000
    expect(specs.some((spec) => [...String(spec.name ?? "")].some((c) => c.codePointAt(0)! > 0xffff))).toBe(true);
    expect(specs.some((spec) => spec.labels && Object.keys(spec.labels).includes("__proto__"))).toBe(true);
    expect(specs.some((spec) => spec.note === null)).toBe(true);
    expect(specs.every((spec) => spec.name === undefined || typeof spec.name === "string")).toBe(true);
    const partial = fc.sample(crdObjectArbitrary(widget, { partial: true }), { numRuns: 200, seed: 42 }) as Array<{
      spec?: Record<string, unknown>;
    }>;
    expect(partial.some((object) => object.spec === undefined || object.spec.size === undefined)).toBe(true);
  });

  it("keeps a list map's keys in partial items, and its items unique by them", () => {
    const ports: OpenApiSchema = {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      items: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string", enum: ["a", "b", "c"] }, port: { type: "integer" } },
      },
    };
    fc.assert(
      fc.property(crdValueArbitrary(ports, { partial: true }), (list) => {
        const names = (list as Array<{ name?: string }>).map((item) => item.name);
        expect(names.every((name) => name !== undefined)).toBe(true);
        expect(new Set(names).size).toBe(names.length);
      }),
    );
  });

  it("terminates below its depth limit even where an entry count or oneOf needs optional fields", () => {
    const needy: OpenApiSchema = {
      type: "object",
      minProperties: 1,
      oneOf: [{ required: ["a"] }, { required: ["b"] }],
      properties: { a: { type: "string" }, b: { type: "string" } },
    };
    const deep: OpenApiSchema = {
      type: "object",
      required: ["x"],
      properties: { x: { type: "object", required: ["y"], properties: { y: needy } } },
    };
    const values = fc.sample(crdValueArbitrary(deep, { maxDepth: 0 }), 50) as Array<{
      x: { y: Record<string, unknown> };
    }>;
    for (const value of values) expect(Object.keys(value.x.y)).toHaveLength(1);
  });
});
