import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DifferenceWalk, jsonDifferences } from "../../src/compare/json-differences";
import { runs } from "../property-runs";

describe("jsonDifferences", () => {
  it("names every differing leaf by its path as crdshift prints paths, with both values", () => {
    expect(
      jsonDifferences(
        { spec: { port: "80", hosts: ["a", "b"] }, metadata: { annotations: { "example.com/x": "1" } } },
        { spec: { port: 80, hosts: ["a"] }, metadata: { annotations: { "example.com/x": "2" } }, extra: true },
      ),
    ).toEqual([
      { path: "spec.port", baseline: "80", candidate: 80 },
      { path: "spec.hosts[1]", baseline: "b" },
      { path: 'metadata.annotations["example.com/x"]', baseline: "1", candidate: "2" },
      { path: "extra", candidate: true },
    ]);
  });

  it("reports a change of type once, not once per leaf below it", () => {
    expect(jsonDifferences({ a: { b: 1, c: 2 } }, { a: [1, 2] })).toEqual([
      { path: "a", baseline: { b: 1, c: 2 }, candidate: [1, 2] },
    ]);
    expect(jsonDifferences(1, "1")).toEqual([{ path: "", baseline: 1, candidate: "1" }]);
  });

  it("takes an int64 as a bigint and as a number to be the same when they are equal", () => {
    expect(jsonDifferences({ n: 9007199254740993n }, { n: 9007199254740993n })).toEqual([]);
    expect(jsonDifferences({ n: 5n }, { n: 5 })).toEqual([]);
    expect(jsonDifferences({ n: 9007199254740993n }, { n: 9007199254740992 })).toHaveLength(1);
    expect(jsonDifferences({ n: 5n }, { n: 5.5 })).toHaveLength(1);
  });

  it("keeps __proto__ as a plain key", () => {
    const a = JSON.parse('{"__proto__": {"x": 1}}');
    const b = JSON.parse('{"__proto__": {"x": 2}}');
    expect(jsonDifferences(a, b)).toEqual([{ path: "__proto__.x", baseline: 1, candidate: 2 }]);
  });

  it("walks values nested as deep as the apiserver stores them (10,000 levels)", () => {
    const chain = (leaf: number) => {
      let value: unknown = leaf;
      for (let i = 0; i < 5_000; i++) value = { a: [value] };
      return value;
    };
    const [difference] = jsonDifferences(chain(1), chain(2));
    expect(difference).toEqual({ path: `a[0]${".a[0]".repeat(4_999)}`, baseline: 1, candidate: 2 });
  });

  it("writes paths with joinPath: brackets for keys that are not names, the whole value as an empty path", () => {
    expect(jsonDifferences({ spec: { "a.b": [0, { c: 1 }] } }, { spec: { "a.b": [0, { c: 2 }] } })).toEqual([
      { path: 'spec["a.b"][1].c', baseline: 1, candidate: 2 },
    ]);
  });

  it("stops at a limit, takes a changed list length as one difference when asked, and passes over accepted ones", () => {
    const a = { x: 1, y: 2, list: [1, 2], empty: {} };
    const b = { x: 3, y: 4, list: [1] };
    expect(jsonDifferences(a, b, { limit: 1 })).toEqual([{ path: "x", baseline: 1, candidate: 3 }]);
    expect(jsonDifferences(a, b, { wholeLists: true }).map((d) => d.path)).toEqual(["x", "y", "list", "empty"]);
    expect(jsonDifferences(a, b).map((d) => d.path)).toEqual(["x", "y", "list[1]", "empty"]);
    const accepted = jsonDifferences(a, b, { accepts: (d) => d.path === "empty" || d.path === "x" });
    expect(accepted.map((d) => d.path)).toEqual(["y", "list[1]"]);
  });
});

describe("DifferenceWalk", () => {
  const TWO_MILLION = 2_000_000;

  it("stops at its limit after as many steps as it compared, however long the list behind", () => {
    const walk = new DifferenceWalk({ items: [] }, { items: new Array<number>(TWO_MILLION).fill(0) }, { limit: 11 });
    expect(walk.advance(Number.POSITIVE_INFINITY)).toBe(true);
    expect(walk.found.map((d) => d.path)).toEqual(Array.from({ length: 11 }, (_, i) => `items[${i}]`));
    // The root, the list, and the eleven items: nothing past the last difference it reports.
    expect(walk.steps).toBe(13);
  });

  it("compares no more pairs than each slice allows, and picks up where it stopped", () => {
    const items = Array.from({ length: TWO_MILLION }, (_, i) => i);
    const walk = new DifferenceWalk({ items }, { items: [...items.slice(0, -1), -1] });
    expect(walk.advance(10_000)).toBe(false);
    expect(walk.steps).toBe(10_000);
    expect(walk.found).toEqual([]);
    expect(walk.advance(Number.POSITIVE_INFINITY)).toBe(true);
    // The root, its field on each side, and every item.
    expect(walk.steps).toBe(TWO_MILLION + 3);
    expect(walk.found).toEqual([{ path: `items[${TWO_MILLION - 1}]`, baseline: TWO_MILLION - 1, candidate: -1 }]);
  });

  it("counts the candidate's fields the baseline also has, so an object of many fields is work too", () => {
    const fields = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`f${i}`, i]));
    const walk = new DifferenceWalk(fields, { ...fields });
    walk.advance(Number.POSITIVE_INFINITY);
    expect(walk.steps).toBe(2_001);
  });

  it("finds the same differences in the same order in slices of any size as in one go", () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(json, json, fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 20 }), (a, b, slice, limit) => {
        const walk = new DifferenceWalk(a, b, { limit });
        while (!walk.advance(slice));
        expect(walk.found).toEqual(jsonDifferences(a, b, { limit }));
      }),
      { numRuns: runs(300) },
    );
  });
});
