import { describe, expect, it } from "vitest";
import { jsonDifferences } from "../../src/compare/json-differences";

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
