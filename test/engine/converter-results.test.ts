import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AnyConverter,
  cachingConverter,
  deepFreeze,
  GROUP,
  odd,
  PLATFORM_CASES,
  platformRegistry,
  platformReview,
  throughEngine,
} from "./converter-results";
import { readConfig } from "../../src/config";
import { asJson } from "../helpers";
import { convertBody } from "../../src/engine/convert-body";

/**
 * Whatever a converter returns, the review ends as a Success the apiserver accepts, each object
 * with its own name, uid and labels, or as the converter's error naming what is wrong with the
 * result; never as crdshift's internal error, and crdshift writes nothing into the result.
 */

const NAME = `object 0 (ns/a, uid uid-a) Odd ${GROUP}/v1 -> ${GROUP}/v2`;
const fails = (problem: string) => ({
  cause: "converter-error",
  message: `${NAME}: the converter's result ${problem}`,
});
const converted = (name: string, spec: unknown, extra: Record<string, unknown> = {}) => ({
  ...odd(name),
  apiVersion: `${GROUP}/v2`,
  spec,
  ...extra,
});
const withSpec =
  (spec: () => unknown): AnyConverter =>
  (object) => ({ ...object, spec: spec() });
const thrower = (message: string) => () => {
  throw new Error(message);
};

describe("a result shared between objects, frozen, or the converter's own", () => {
  it("a cached result: each object keeps its own name, uid and labels, and the cache is left as it was", async () => {
    let cache: Record<string, unknown> | undefined;
    const convert: AnyConverter = (object) => (cache ??= { spec: { converted: object.spec } });
    const result = await throughEngine(convert, [odd("a"), odd("b", { size: 2 })]);
    expect(result).toEqual({
      objects: [converted("a", { converted: { size: 1 } }), converted("b", { converted: { size: 1 } })],
    });
    expect(cache).toEqual({ spec: { converted: { size: 1 } } });
  });

  it("a cached result holding the first object's metadata: names and uids are each object's own, labels the converter's", async () => {
    const result = await throughEngine(cachingConverter(true), [odd("a"), odd("b")]);
    expect(result.objects).toEqual([
      converted("a", { converted: { size: 1 } }),
      { ...converted("b", { converted: { size: 1 } }), metadata: { ...odd("b").metadata, labels: { owner: "a" } } },
    ]);
  });

  it("a cache shared by two reviews: the second is not served the first one's metadata", async () => {
    const convert = cachingConverter(false);
    await throughEngine(convert, [odd("a")]);
    expect((await throughEngine(convert, [odd("c")])).objects).toEqual([converted("c", { converted: { size: 1 } })]);
  });

  const sealedKinds: Array<[string, (value: object) => object]> = [
    ["deep-frozen (Immer's produce)", deepFreeze],
    ["sealed", Object.seal],
    ["not extensible", Object.preventExtensions],
  ];
  for (const [what, lock] of sealedKinds) {
    it(`a ${what} result converts`, async () => {
      const result = await throughEngine(
        (object) => lock({ ...object, spec: lock({ size: 3 }) }),
        [odd("a"), odd("b")],
      );
      expect(result).toEqual({ objects: [converted("a", { size: 3 }), converted("b", { size: 3 })] });
    });
  }

  it("the input itself, changed or not", async () => {
    expect((await throughEngine((object) => object)).objects).toEqual([converted("a", { size: 1 })]);
    const changed: AnyConverter = (object) => Object.assign(object, { spec: { size: 9 } });
    expect((await throughEngine(changed)).objects).toEqual([converted("a", { size: 9 })]);
  });

  it("the input's metadata object, as a field or as the whole result", async () => {
    const asField = await throughEngine((object) => ({ ...object, spec: { meta: object.metadata } }));
    expect(asField.objects).toEqual([converted("a", { meta: odd("a").metadata })]);
    const whole = await throughEngine((object) => object.metadata);
    expect(whole.objects).toEqual([
      { ...odd("a").metadata, apiVersion: `${GROUP}/v2`, kind: "Odd", metadata: odd("a").metadata },
    ]);
  });

  it("one object shared at several places of one result, and between results", async () => {
    const shared = deepFreeze({ list: [1, 2] });
    const result = await throughEngine(() => ({ spec: { a: shared, b: [shared, shared] } }), [odd("a"), odd("b")]);
    const spec = { a: { list: [1, 2] }, b: [{ list: [1, 2] }, { list: [1, 2] }] };
    expect(result.objects).toEqual([converted("a", spec), converted("b", spec)]);
  });

  it("a chain: a later converter that changes its input does not change the earlier one's cache", async () => {
    let cache: Record<string, unknown> | undefined;
    const first: AnyConverter = () => (cache ??= { spec: { size: 1, steps: ["v2"] } });
    const second: AnyConverter = (object) => {
      (object.spec as { steps: string[] }).steps.push("v3");
      return object;
    };
    const result = await throughEngine(first, [odd("a"), odd("b")], { to: "v3", next: second });
    const spec = { size: 1, steps: ["v2", "v3"] };
    expect(result.objects).toEqual([
      { ...converted("a", spec), apiVersion: `${GROUP}/v3` },
      { ...converted("b", spec), apiVersion: `${GROUP}/v3` },
    ]);
    expect(cache).toEqual({ spec: { size: 1, steps: ["v2"] } });
  });

  it("an asynchronous converter's frozen cache", async () => {
    const cache = deepFreeze({ spec: { size: 5 } });
    const result = await throughEngine(async () => cache, [odd("a"), odd("b")]);
    expect(result.objects).toEqual([converted("a", { size: 5 }), converted("b", { size: 5 })]);
  });
});

describe("values JSON writes its own way, as JSON writes them", () => {
  class Spec {
    size = 4;
    label = "x";
    double(): number {
      return this.size * 2;
    }
  }
  const cases: Array<[string, AnyConverter, unknown]> = [
    ["a class instance: its own fields", withSpec(() => new Spec()), { size: 4, label: "x" }],
    ["a class instance as the whole result", (object) => Object.assign(new Spec(), object), undefined],
    ["a Date: its toJSON", withSpec(() => ({ at: new Date(0) })), { at: "1970-01-01T00:00:00.000Z" }],
    ["a bigint: its digits", withSpec(() => ({ n: 2n ** 64n })), { n: 2n ** 64n }],
    [
      "boxed primitives: unboxed",
      withSpec(() => ({ n: Object(1), s: Object("s"), b: Object(false) })),
      { n: 1, s: "s", b: false },
    ],
    ["a toJSON returning a number", withSpec(() => ({ v: { toJSON: () => 7 } })), { v: 7 }],
    ["a toJSON returning undefined: left out", withSpec(() => ({ v: { toJSON: () => undefined }, w: 1 })), { w: 1 }],
    [
      "a toJSON returning itself",
      withSpec(() => ({
        v: {
          a: 1,
          toJSON() {
            return this;
          },
        },
      })),
      { v: { a: 1 } },
    ],
    ["a toJSON given its key", withSpec(() => ({ key: { toJSON: (key: string) => key } })), { key: "key" }],
    [
      "functions and symbols: left out, null in a list",
      withSpec(() => ({ f: () => 1, s: Symbol("s"), list: [() => 1, undefined, Symbol("t")] })),
      { list: [null, null, null] },
    ],
    ["symbol keys: left out", withSpec(() => ({ [Symbol("hidden")]: { a: 1 }, a: 2 })), { a: 2 }],
    ["an object without a prototype", withSpec(() => Object.assign(Object.create(null), { a: 1 })), { a: 1 }],
    [
      "a getter: read once",
      withSpec(() => ({
        get a() {
          return 5;
        },
      })),
      { a: 5 },
    ],
    [
      "a proxy that answers as the object would",
      withSpec(() => new Proxy({ a: [1, { b: 2 }] }, {})),
      { a: [1, { b: 2 }] },
    ],
    ["a list 2,000 levels deep", withSpec(() => nested(2000)), nested(2000)],
  ];
  for (const [what, convert, spec] of cases) {
    it(what, async () => {
      const result = await throughEngine(convert);
      if (spec === undefined) expect(result.objects).toEqual([converted("a", { size: 1 }, { size: 4, label: "x" })]);
      else expect(result).toEqual({ objects: [converted("a", spec)] });
    });
  }

  it("a getter that changes something is read once, and the reply holds what it returned", async () => {
    let reads = 0;
    const counter = { n: 0 };
    const result = await throughEngine(() => ({
      get spec() {
        reads++;
        counter.n++;
        return { n: counter.n };
      },
    }));
    expect(result.objects).toEqual([converted("a", { n: 1 })]);
    expect(reads).toBe(1);
  });

  it("labels read once: a getter that would answer otherwise the second time", async () => {
    let reads = 0;
    const labels = {
      get owner() {
        return reads++ === 0 ? "kept" : { not: "a string" };
      },
    };
    const result = await throughEngine((object) => ({ ...object, metadata: { labels } }));
    expect(result.objects).toEqual([
      { ...converted("a", { size: 1 }), metadata: { ...odd("a").metadata, labels: { owner: "kept" } } },
    ]);
  });
});

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

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

describe("the cases the Workers and Lambda tests run", () => {
  const limits = readConfig({});
  for (const { kind, result, objects } of PLATFORM_CASES) {
    it(kind, async () => {
      const outcome = await convertBody(platformRegistry(), JSON.stringify(platformReview(kind)), { limits });
      expect(outcome.ok).toBe(true);
      const reply = JSON.parse(outcome.ok ? outcome.text : "{}").response;
      expect(reply.result).toEqual(result);
      expect(reply.convertedObjects).toEqual(objects);
    });
  }
});

describe("property: a result the converter holds in any way JSON reads alike converts to the same reply", () => {
  /** The value again, each object of it made over by `make` (its fields already made over). */
  const remade = (value: unknown, make: (fields: Record<string, unknown>) => object): unknown => {
    if (Array.isArray(value)) return value.map((item) => remade(item, make));
    if (typeof value !== "object" || value === null) return value;
    const fields: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(fields, key, {
        value: remade(item, make),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return make(fields);
  };
  const ways: Record<string, (fields: Record<string, unknown>) => object> = {
    frozen: (fields) => Object.freeze(fields),
    getters: (fields) => {
      const out = {};
      for (const [key, item] of Object.entries(fields))
        Object.defineProperty(out, key, { get: () => item, enumerable: true, configurable: true });
      return out;
    },
    proxied: (fields) => new Proxy(fields, {}),
    "behind a toJSON": (fields) => ({ toJSON: () => fields }),
    "without a prototype": (fields) => Object.assign(Object.create(null), fields),
  };
  for (const [way, make] of Object.entries(ways)) {
    it(way, async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (spec) => {
          const plain = await throughEngine(
            withSpec(() => spec),
            [odd("a"), odd("b")],
          );
          const held = await throughEngine(
            withSpec(() => remade(spec, make)),
            [odd("a"), odd("b")],
          );
          expect(held).toEqual(plain);
          expect(plain.objects).toEqual([converted("a", spec), converted("b", spec)].map(asJson));
        }),
        { numRuns: 100 },
      );
    });
  }
});
