import { describe, expect, it } from "vitest";
import { type AnyConverter, GROUP, odd, throughEngine } from "./converter-results";

/**
 * What JSON cannot carry in a converter's result, or what cannot be read in it: the converter's
 * error, naming the object, the versions and the field; never crdshift's internal error.
 */

const NAME = `object 0 (ns/a, uid uid-a) Odd ${GROUP}/v1 -> ${GROUP}/v2`;
const fails = (problem: string) => ({
  cause: "converter-error",
  message: `${NAME}: the converter's result ${problem}`,
});
const withSpec =
  (spec: () => unknown): AnyConverter =>
  (object) => ({ ...object, spec: spec() });
const thrower = (message: string) => () => {
  throw new Error(message);
};

describe("what JSON cannot carry, or cannot be read: the converter's error, naming the field", () => {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwing = (trap: keyof ProxyHandler<object>) => new Proxy({ a: 1 }, { [trap]: thrower(`${trap} refused`) });
  const cycle = () => {
    const spec: Record<string, unknown> = { list: [] };
    (spec.list as unknown[]).push({ back: spec });
    return spec;
  };
  const cases: Array<[string, AnyConverter, string]> = [
    [
      "a getter that throws, at the top",
      (object) => ({
        ...object,
        get spec() {
          return thrower("not ready")();
        },
      }),
      "could not be read at spec: Error: not ready",
    ],
    [
      "a getter that throws, nested",
      withSpec(() => ({
        a: [
          0,
          {
            get b() {
              return thrower("deep")();
            },
          },
        ],
      })),
      "could not be read at spec.a[1].b: Error: deep",
    ],
    ["a proxy whose get throws", withSpec(() => throwing("get")), "could not be read at spec: Error: get refused"],
    [
      "a proxy whose ownKeys throws",
      withSpec(() => throwing("ownKeys")),
      "could not be read at spec: Error: ownKeys refused",
    ],
    [
      "a proxy whose getOwnPropertyDescriptor throws",
      withSpec(() => throwing("getOwnPropertyDescriptor")),
      "could not be read at spec: Error: getOwnPropertyDescriptor refused",
    ],
    [
      "a proxy whose getPrototypeOf throws",
      withSpec(() => throwing("getPrototypeOf")),
      "could not be read at spec: Error: getPrototypeOf refused",
    ],
    [
      "a revoked proxy, nested",
      withSpec(revoked),
      "could not be read at spec: TypeError: Cannot perform 'getPrototypeOf' on a proxy that has been revoked",
    ],
    [
      "a revoked proxy as the result",
      revoked,
      "could not be read: TypeError: Cannot perform 'getPrototypeOf' on a proxy that has been revoked",
    ],
    [
      "a proxy as the result whose getPrototypeOf throws",
      () => throwing("getPrototypeOf"),
      "could not be read: Error: getPrototypeOf refused",
    ],
    [
      "a toJSON that throws",
      withSpec(() => ({ v: { toJSON: thrower("no JSON") } })),
      "could not be read at spec.v: Error: no JSON",
    ],
    [
      "a toJSON on the result that throws",
      (object) => ({ ...object, toJSON: thrower("no JSON") }),
      "could not be read: Error: no JSON",
    ],
    ["a cycle", withSpec(cycle), "refers to itself: spec.list[0].back is spec"],
    [
      "a cycle back to the result, below the first 64 levels",
      (object) => {
        const result: Record<string, unknown> = { ...object };
        let inner: Record<string, unknown> = result;
        for (let i = 0; i < 70; i++) inner = (inner.spec = {}) as Record<string, unknown>;
        inner.spec = result;
        return result;
      },
      `refers to itself: ${Array(71).fill("spec").join(".")} is the result itself`,
    ],
    [
      "a toJSON that returns its own holder",
      withSpec(() => ({
        v: {
          toJSON() {
            return { again: this };
          },
        },
      })),
      "refers to itself: spec.v.again is spec.v",
    ],
    [
      "NaN",
      withSpec(() => ({ list: [1, { n: NaN }] })),
      "holds NaN at spec.list[1].n, which JSON cannot carry (it would arrive as null)",
    ],
    [
      "Infinity in a list",
      withSpec(() => [Infinity]),
      "holds Infinity at spec[0], which JSON cannot carry (it would arrive as null)",
    ],
    [
      "-Infinity from a toJSON",
      withSpec(() => ({ v: { toJSON: () => -Infinity } })),
      "holds -Infinity at spec.v, which JSON cannot carry (it would arrive as null)",
    ],
    [
      "a Map",
      withSpec(() => ({ m: new Map([["a", 1]]) })),
      "holds a Map at spec.m, which JSON cannot carry (it would arrive as {})",
    ],
    ["a Set", withSpec(() => new Set([1])), "holds a Set at spec, which JSON cannot carry (it would arrive as {})"],
    [
      "a promise not awaited",
      withSpec(() => ({ p: Promise.resolve(1) })),
      "holds a promise at spec.p, which JSON cannot carry (it would arrive as {})",
    ],
    [
      "an Error",
      withSpec(() => ({ e: new Error("x") })),
      "holds an Error at spec.e, which JSON cannot carry (it would arrive as {})",
    ],
    [
      "a RegExp",
      withSpec(() => ({ r: /x/ })),
      "holds a RegExp at spec.r, which JSON cannot carry (it would arrive as {})",
    ],
    [
      "a typed array",
      withSpec(() => ({ bytes: new Uint8Array(2) })),
      "holds a typed array at spec.bytes, which JSON cannot carry (it would arrive as {})",
    ],
    ["a Map as the result", () => new Map(), "holds a Map, which JSON cannot carry (it would arrive as {})"],
    [
      "metadata whose getter throws",
      (object) => ({
        ...object,
        get metadata() {
          return thrower("no metadata")();
        },
      }),
      "could not be read at metadata: Error: no metadata",
    ],
    [
      "labels that are a proxy whose ownKeys throws",
      (object) => ({ ...object, metadata: { labels: throwing("ownKeys") } }),
      "could not be read at metadata.labels: Error: ownKeys refused",
    ],
    [
      "labels that are a Map: refused as in the rest of a result, not read as {} (which would clear the object's labels)",
      (object) => ({ ...object, metadata: { labels: new Map([["owner", "x"]]) } }),
      "holds a Map at metadata.labels, which JSON cannot carry (it would arrive as {})",
    ],
    [
      "annotations whose value is read through a throwing getter",
      (object) => ({
        ...object,
        metadata: {
          annotations: {
            get a() {
              return thrower("no annotation")();
            },
          },
        },
      }),
      "could not be read at metadata.annotations: Error: no annotation",
    ],
  ];
  for (const [what, convert, problem] of cases) {
    it(what, async () => {
      expect(await throughEngine(convert)).toEqual(fails(problem));
    });
  }

  it("a toJSON that returns a new object at every level: refused at CRDSHIFT_MAX_DEPTH, not run out of memory", async () => {
    const endless = (): object => ({ toJSON: () => ({ next: endless() }) });
    const failed = await throughEngine(withSpec(() => ({ toJSON: () => ({ next: endless() }) })));
    expect(failed.cause).toBe("converter-error");
    expect(failed.message).toMatch(
      /the converter's result nests deeper than 10000 levels at spec\.next\.next.*, more than a review may \(CRDSHIFT_MAX_DEPTH\)$/,
    );
  });

  it("a promise that is a proxy, or whose then throws: rejected, the converter's error", async () => {
    const proxied = await throughEngine(() => new Proxy(Promise.resolve({}), {}));
    expect(proxied.cause).toBe("converter-error");
    expect(proxied.message).toMatch(
      /^object 0 \(ns\/a, uid uid-a\) Odd .*: Method Promise\.prototype\.then called on incompatible receiver/,
    );
    const broken = Promise.resolve({});
    Object.defineProperty(broken, "then", { get: thrower("no then") });
    expect(await throughEngine(() => broken)).toEqual({ cause: "converter-error", message: `${NAME}: no then` });
  });

  it("a promise of a result whose getter throws", async () => {
    const result = await throughEngine(async (object) => ({
      ...object,
      get spec() {
        return thrower("later")();
      },
    }));
    expect(result).toEqual(fails("could not be read at spec: Error: later"));
  });

  it("in a chain, the step is named", async () => {
    const result = await throughEngine((object) => object, [odd("a")], {
      to: "v3",
      next: withSpec(() => ({ n: NaN })),
    });
    expect(result).toEqual({
      cause: "converter-error",
      message: `object 0 (ns/a, uid uid-a) Odd ${GROUP}/v1 -> ${GROUP}/v3: the converter's result holds NaN at spec.n, which JSON cannot carry (it would arrive as null) (in step v2 -> v3)`,
    });
  });
});
