import { arbitraryFor } from "crdshift/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";

/** Every object and array in a value, and every scalar, for counting what was generated. */
function* walk(value: unknown): Generator<unknown> {
  yield value;
  if (typeof value !== "object" || value === null) return;
  for (const key of Object.keys(value)) yield* walk((value as Record<string, unknown>)[key]);
}

const schema = z.looseObject({
  spec: z.optional(
    z.looseObject({
      replicas: z.optional(z.int()),
      total: z.optional(z.union([z.number(), z.bigint()])),
      limit: z.optional(z.int64()),
    }),
  ),
});
const samples = fc.sample(arbitraryFor(schema, { unknownFields: true }), { numRuns: 500, seed: 13 });
const values = samples.flatMap((sample) => [...walk(sample)]);
const objects = values.filter(
  (value): value is object => typeof value === "object" && value !== null && !Array.isArray(value),
);

describe("generated objects are what the webhook hands converters", () => {
  it("hold fields named __proto__, constructor and prototype, as own data", () => {
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const holders = objects.filter((object) => Object.hasOwn(object, name));
      expect(holders.length, name).toBeGreaterThan(10);
      // Among them values a prototype setter would drop without a trace.
      expect(holders.some((object) => typeof (object as Record<string, unknown>)[name] !== "object")).toBe(true);
    }
  });

  it("are ordinary objects: no null prototype, no prototype taken from a field", () => {
    for (const object of objects) expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
  });

  it("hold integers beyond 2^53 as bigint, and only those", () => {
    const bigints = values.filter((value): value is bigint => typeof value === "bigint");
    expect(bigints.length).toBeGreaterThan(10);
    for (const big of bigints)
      expect(big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)).toBe(true);
    for (const value of values)
      if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) < 1e21)
        expect(Number.isSafeInteger(value)).toBe(true);
  });

  it("put a bigint where the schema takes one (an int64 field), and none where it does not", () => {
    const specs = samples.map((sample) => sample.spec as Record<string, unknown> | undefined);
    expect(specs.filter((spec) => typeof spec?.total === "bigint").length).toBeGreaterThan(10);
    expect(specs.filter((spec) => typeof spec?.limit === "bigint").length).toBeGreaterThan(10);
    expect(specs.some((spec) => typeof spec?.replicas === "bigint")).toBe(false);
  });
});
