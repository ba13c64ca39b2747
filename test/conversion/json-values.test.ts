import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonTreeWith } from "../json-arbitrary";
import { ConversionFailure } from "../../src/conversion/conversion-failure";
import { readResult } from "../../src/conversion/converter-result";
import { copyJson } from "../../src/json/values";
import { encodeJson } from "../../src/json/codec";
import { runs } from "../property-runs";

const objects = (value: unknown, found: object[] = []): object[] => {
  if (typeof value === "object" && value !== null) {
    found.push(value);
    for (const item of Object.values(value)) objects(item, found);
  }
  return found;
};

describe("copyJson", () => {
  it("copies any JSON value, sharing nothing with it", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = copyJson(value);
        expect(copy).toEqual(value);
        const before = new Set(objects(value));
        expect(objects(copy).some((o) => before.has(o))).toBe(false);
      }),
      { numRuns: runs(500) },
    );
  });

  it("copies at any depth, with __proto__ kept as a plain key at every level", () => {
    const depth = 100_000;
    const text = `${'{"__proto__":['.repeat(depth)}1${"]}".repeat(depth)}`;
    const copy = copyJson(JSON.parse(text));
    expect(encodeJson(copy)).toBe(text);
    // One assertion for all levels: the first level whose prototype is not Object's, if any.
    let node: unknown = copy;
    let strayLevel = -1;
    for (let level = 0; level < depth; level++) {
      if (strayLevel < 0 && Object.getPrototypeOf(node) !== Object.prototype) strayLevel = level;
      node = (Object.getOwnPropertyDescriptor(node, "__proto__")!.value as unknown[])[0];
    }
    expect(strayLevel).toBe(-1);
    expect(node).toBe(1);
  });
});

describe("a converter's result holding NaN or ±Infinity (converter-result.ts)", () => {
  const refused = (spec: unknown) => {
    try {
      readResult(
        { spec },
        { last: true, held: undefined, step: "", limits: { maxDepth: 1_000_000, maxBytes: 1 << 30 } },
      );
      return false;
    } catch (error) {
      return (
        error instanceof ConversionFailure && /which JSON cannot carry \(it would arrive as null\)$/.test(error.message)
      );
    }
  };
  it("is refused wherever they are, at any depth", () => {
    const odd = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);
    const value = jsonTreeWith(odd);
    fc.assert(
      fc.property(value, (v) => {
        const expected = [v, ...objects(v).flatMap((o) => Object.values(o))].some(
          (x) => typeof x === "number" && !Number.isFinite(x),
        );
        expect(refused(v)).toBe(expected);
      }),
      { numRuns: runs(500) },
    );
    expect(refused(JSON.parse(`${"[".repeat(100_000)}1${"]".repeat(100_000)}`))).toBe(false);
    expect(refused(JSON.parse(`${"[".repeat(100_000)}1${"]".repeat(100_000)}`.replace("1", "[1,2]")).concat(NaN))).toBe(
      true,
    );
  });
});
