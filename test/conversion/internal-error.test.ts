import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { convertObjects, createRegistry, defineKind } from "../../src/conversion";
// A stand-in for a bug in crdshift: the metadata guard, crdshift's own code, throws.
vi.mock(import("../../src/conversion/metadata-guard"), async (importOriginal) => ({
  ...(await importOriginal()),
  guardMaps: () => {
    throw new TypeError("Cannot read properties of undefined (reading 'labels')");
  },
}));

const spec = z.looseObject({ spec: z.looseObject({ size: z.number().optional() }).optional() });
const registry = createRegistry([
  defineKind({
    group: "bug.example.com",
    kind: "Widget",
    versions: { v1: spec, v2: spec },
    converters: { v1: { v2: (o) => o }, v2: { v1: (o) => o } },
  }),
]);
const widget = { apiVersion: "bug.example.com/v1", kind: "Widget", metadata: { name: "a", namespace: "ns" } };

describe("crdshift's own bugs are reported as its own", () => {
  it("an exception from crdshift's code is internal-error, naming the object, never the object's or converter's fault", async () => {
    const result = await convertObjects(registry, "bug.example.com/v2", [widget]);
    const problem =
      "internal error occurred during conversion " +
      "(a bug in crdshift, not in this object or its converters; please report it): " +
      "TypeError: Cannot read properties of undefined (reading 'labels')";
    expect(result).toEqual({
      ok: false,
      cause: "internal-error",
      code: "internal-error",
      index: 0,
      message: `object 0 (ns/a) Widget bug.example.com/v1 -> bug.example.com/v2: ${problem}`,
      problem,
    });
  });
});
