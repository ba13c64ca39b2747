import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { heldAtLeast, heldAtMost, heldByShape } from "../../src/conversion/held-memory";
import { heldBeforeRead } from "../../src/conversion/review-limits";
import { scanBody } from "../../src/json";
import { readConfig } from "../../src/server/config";
import { runs } from "../property-runs";

// The estimate of what a review holds bounds every body between what its length alone says
// (the least, counted before the body is read) and the densest body of that length.

describe("the memory a review holds, as estimated", () => {
  it("lies between the least and the most a body of its length holds, whatever its shape", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const held = heldByShape(text.length, scanBody(text));
        expect(held).toBeGreaterThanOrEqual(heldAtLeast(text.length));
        expect(held).toBeLessThanOrEqual(heldAtMost(text.length));
      }),
      { numRuns: runs(1000) },
    );
    for (const dense of ["[{},{},{},{}]", "[[],[],[],[]]", "[0,0,0,0,0]", '{"a":0,"b":0}']) {
      expect(heldByShape(dense.length, scanBody(dense))).toBeLessThanOrEqual(heldAtMost(dense.length));
    }
  });

  it("counts a body of `{}` as holding many times a string of the same length", () => {
    const items = `[${Array(10_000).fill("{}").join(",")}]`;
    const string = JSON.stringify("x".repeat(items.length - 2));
    expect(heldByShape(items.length, scanBody(items))).toBeGreaterThan(
      5 * heldByShape(string.length, scanBody(string)),
    );
  });

  it("before a body is read: all a short one may hold (it is parsed whole, unscanned), the least a long one holds", () => {
    const config = readConfig({});
    expect(heldBeforeRead(1000, config)).toBe(heldAtMost(1000));
    expect(heldBeforeRead(4 * 2 ** 20, config)).toBe(heldAtLeast(4 * 2 ** 20));
    // Never more than one review may hold: a short dense body runs alone rather than fail.
    const small = { ...config, maxBytesInFlight: heldAtLeast(1000) };
    expect(heldBeforeRead(1000, small)).toBe(heldAtLeast(1000));
  });
});
