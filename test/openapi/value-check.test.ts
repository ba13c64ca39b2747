import { describe, expect, it } from "vitest";
import type { OpenApiSchema } from "../../src/openapi/schema";
import { firstViolation, matchesSchema } from "../../src/openapi/value-check";

// The oracle the CRD arbitraries are held to: the apiserver's write-time checks, read from its
// validation code (kube-openapi's type validator: integral numbers are integers, int64 in int32).
describe("matchesSchema", () => {
  it("checks types as the apiserver does", () => {
    expect(matchesSchema(1.0, { type: "integer" })).toBe(true);
    expect(matchesSchema(1.5, { type: "integer" })).toBe(false);
    expect(matchesSchema(2n ** 62n, { type: "integer", format: "int32" })).toBe(true);
    expect(matchesSchema(2n ** 62n, { type: "number" })).toBe(true);
    expect(matchesSchema("3", { "x-kubernetes-int-or-string": true })).toBe(true);
    expect(matchesSchema(true, { "x-kubernetes-int-or-string": true })).toBe(false);
    expect(matchesSchema(null, { type: "string" })).toBe(false);
    expect(matchesSchema(null, { type: "string", nullable: true })).toBe(true);
    expect(matchesSchema({ a: [1] }, { "x-kubernetes-preserve-unknown-fields": true })).toBe(true);
  });

  it("checks value constraints, lengths in code points as Go counts runes", () => {
    const name: OpenApiSchema = { type: "string", maxLength: 2, pattern: "^[a-z😀]+$" };
    expect(matchesSchema("😀😀", name)).toBe(true);
    expect(matchesSchema("abc", name)).toBe(false);
    expect(matchesSchema("A", name)).toBe(false);
    expect(
      firstViolation(
        { spec: { port: 0 } },
        {
          type: "object",
          properties: {
            spec: { type: "object", properties: { port: { type: "integer", minimum: 0, exclusiveMinimum: true } } },
          },
        },
        "",
      ),
    ).toBe("spec.port: below the minimum");
    expect(firstViolation({}, { type: "object", required: ["spec"] }, "")).toBe("spec: required");
  });

  it("checks list maps' keys and sets for duplicates, and junctors", () => {
    const list: OpenApiSchema = {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      items: { type: "object" },
    };
    expect(
      matchesSchema(
        [
          { name: "a", x: 1 },
          { name: "a", x: 2 },
        ],
        list,
      ),
    ).toBe(false);
    expect(matchesSchema([{ name: "a" }, { name: "b" }], list)).toBe(true);
    expect(matchesSchema(["a", "a"], { type: "array", "x-kubernetes-list-type": "set" })).toBe(false);
    const one: OpenApiSchema = { type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }] };
    expect([{ a: 1 }, { b: 1 }, { a: 1, b: 1 }, {}].map((value) => matchesSchema(value, one))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(matchesSchema({ legacy: true }, { type: "object", not: { required: ["legacy"] } })).toBe(false);
  });
});
