import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BEYOND_SAFE, integersIn, numbersIn, stringsIn } from "../../src/check/scalars";

// The leaves both generators share (arbitrary.ts from zod, crd-arbitrary.ts from a CRD).

describe("integersIn", () => {
  it("stays within bounds that lie away from zero, and spreads over them", () => {
    const values = fc.sample(integersIn(5000, 6000), { numRuns: 300, seed: 1 });
    for (const n of values) expect(typeof n === "number" && n >= 5000 && n <= 6000).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(50);
    const exact = fc.sample(integersIn(-(2 ** 53), 2 ** 53), { numRuns: 300, seed: 1 });
    for (const n of exact) expect(typeof n === "bigint" || Number.isSafeInteger(n)).toBe(true);
  });

  it("reaches past ±2^53 as bigint where unbounded, and only there", () => {
    const values = fc.sample(integersIn(undefined, undefined), { numRuns: 500, seed: 2 });
    expect(values.some((n) => typeof n === "bigint" && n > BEYOND_SAFE)).toBe(true);
    expect(values.some((n) => typeof n === "bigint" && n < -BEYOND_SAFE)).toBe(true);
    expect(values.some((n) => typeof n === "number" && Math.abs(n) > 1e6)).toBe(true);
    for (const n of values) if (typeof n === "bigint") expect(n > BEYOND_SAFE || n < -BEYOND_SAFE).toBe(true);
    const bounded = fc.sample(integersIn(0, Number.MAX_SAFE_INTEGER), { numRuns: 500, seed: 2 });
    expect(bounded.every((n) => typeof n === "number" && n >= 0)).toBe(true);
  });
});

describe("stringsIn", () => {
  const astral = (text: string) => [...text].some((c) => c.codePointAt(0)! > 0xffff);

  it("counts lengths as the schema does: code points for a CRD, reaching its limit with astral characters", () => {
    const texts = fc.sample(stringsIn({ maxLength: 4, counts: "code-points" }), { numRuns: 500, seed: 3 });
    expect(texts.every((text) => [...text].length <= 4)).toBe(true);
    expect(texts.some((text) => [...text].length === 4 && astral(text) && text.length > 4)).toBe(true);
  });

  it("UTF-16 units for zod, astral characters included", () => {
    const texts = fc.sample(stringsIn({ maxLength: 4, counts: "utf-16" }), { numRuns: 500, seed: 3 });
    expect(texts.every((text) => text.length <= 4)).toBe(true);
    expect(texts.some(astral)).toBe(true);
  });

  it("makes values of a format, held to the pattern too", () => {
    const texts = fc.sample(stringsIn({ format: "date-time", pattern: /:00/, counts: "code-points" }), {
      numRuns: 50,
      seed: 4,
    });
    for (const text of texts) {
      expect(Number.isNaN(Date.parse(text))).toBe(false);
      expect(text).toMatch(/:00/);
    }
  });
});

describe("numbersIn", () => {
  it("gives doubles alone where the bounds hold no integer", () => {
    const values = fc.sample(numbersIn({ min: 0.2, max: 0.8 }, 1, 0), { numRuns: 200, seed: 5 });
    for (const n of values) expect(typeof n === "number" && n >= 0.2 && n <= 0.8).toBe(true);
  });
});
