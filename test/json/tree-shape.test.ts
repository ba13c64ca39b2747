import { describe, expect, it } from "vitest";
import { treeShape } from "../../src/json/tree-shape";

// The walk decides whether a body is searched for numbers JSON.parse may have changed: an
// integer beyond 2^53 (rounded to a magnitude of 2^53 or more), or a number beyond a double's
// range (read as 0 or ±Infinity). A number it lets pass is never searched for.
describe("the tree walk's notice of numbers", () => {
  const shapeOf = (value: number) => {
    const { edgeNumber, largeNumber } = treeShape({ spec: { list: [1, { value }] } });
    return { edgeNumber, largeNumber };
  };

  it.each([
    [2 ** 53 - 1, false, false],
    [-(2 ** 53 - 1), false, false],
    [0.5, false, false],
    [Number.MIN_VALUE, false, false],
    [2 ** 53, false, true],
    [-(2 ** 53), false, true],
    [Number.MAX_VALUE, false, true],
    [0, true, false],
    [-0, true, false],
    [Infinity, true, false],
    [-Infinity, true, false],
  ])("%d: edge %s, large %s", (value, edgeNumber, largeNumber) => {
    expect(shapeOf(value)).toEqual({ edgeNumber, largeNumber });
  });

  it("integers JSON.parse rounds come out large", () => {
    for (const text of ["9007199254740993", "-9007199254740993", "12345678901234567890"])
      expect(shapeOf(JSON.parse(text) as number).largeNumber).toBe(true);
  });
});
