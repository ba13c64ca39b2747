import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GenerationLimit } from "../../src/check/bounded-filter";
import { crdObjectArbitrary, crdValueArbitrary } from "../../src/check/crd-arbitrary";
import { generationProblem } from "../../src/check/generation-bounds";
import { matchesSchema } from "../../src/kube/crd/value-check";
import type { OpenApiSchema } from "../../src/kube/crd/schema";

function samples(schema: OpenApiSchema, runs = 300): unknown[] {
  return fc.sample(crdValueArbitrary(schema), { numRuns: runs, seed: 7 });
}

describe("values generated within what the apiserver checks", () => {
  it("format int32 narrows integers to its range, int64 reaches past 2^53", () => {
    const int32 = samples({ type: "integer", format: "int32" }, 1000);
    expect(int32.every((n) => typeof n === "number" && n >= -(2 ** 31) && n <= 2 ** 31 - 1)).toBe(true);
    // The range's ends are reached, not only small values.
    expect(int32.some((n) => Math.abs(n as number) > 2 ** 20)).toBe(true);
    const int64 = samples({ type: "integer", format: "int64" }, 1000);
    expect(int64.some((n) => typeof n === "bigint")).toBe(true);
    expect(generationProblem({ type: "integer", format: "int32", minimum: 2 ** 40 })).toBe(
      "the object: format int32 (-2147483648 to 2147483647) and minimum 1099511627776 leave no value",
    );
  });

  it("format float keeps numbers a 32-bit float holds, even with wider bounds", () => {
    const schema: OpenApiSchema = { type: "number", format: "float", maximum: 1e300, minimum: -1e300 };
    const values = samples(schema, 1000);
    expect(values.every((n) => matchesSchema(n, schema))).toBe(true);
  });

  it("a pattern beside lengths it rarely proposes is still met: strings of every allowed length", () => {
    // fast-check proposes short strings for `+`; a 40-character hash or a 50-letter name would
    // otherwise be reported as constraints no value meets, a false finding on a real CRD.
    for (const [pattern, minLength, maxLength] of [
      ["^[0-9a-f]+$", 40, 40],
      ["^[a-z]+$", 50, 50],
      ["^[a-z]([-a-z0-9]*[a-z0-9])?$", 60, 63],
      ["^v[0-9]{1,}$", 30, undefined],
    ] as const) {
      const schema: OpenApiSchema = { type: "string", pattern, minLength, ...(maxLength ? { maxLength } : {}) };
      const values = samples(schema, 100);
      expect(values.length, pattern).toBe(100);
      expect(
        values.every((text) => matchesSchema(text, schema)),
        pattern,
      ).toBe(true);
    }
  });

  it("patterns only RE2 reads are generated and held to RE2", () => {
    for (const pattern of ["(?i)^ab[0-9]\\z", "^\\pL{2,5}$", "^(?P<x>[a-f]+)-[[:digit:]]{3}$", "^(a+)+$|^a{25,30}b$"]) {
      const schema: OpenApiSchema = { type: "string", pattern };
      const values = samples(schema, 100);
      expect(values.length, pattern).toBe(100);
      expect(
        values.every((text) => matchesSchema(text, schema)),
        pattern,
      ).toBe(true);
    }
  });

  it("refuses, rather than draws forever or fills memory, where no value can be made", () => {
    expect(() => crdValueArbitrary({ type: "array", minItems: 5e7, items: { type: "string" } })).toThrow(
      GenerationLimit,
    );
    expect(() => crdObjectArbitrary({ type: "object", required: ["a", "b"], maxProperties: 1 })).toThrow(
      "the object: 2 required fields (a, b) but maxProperties 1",
    );
  });
});
