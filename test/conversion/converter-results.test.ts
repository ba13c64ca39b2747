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
import { readConfig } from "../../src/server/config";
import { convertBody } from "../../src/conversion/convert-review";

/**
 * Whatever a converter returns, the review ends as a Success the apiserver accepts, each object
 * with its own name, uid and labels, or as the converter's error naming what is wrong with the
 * result; never as crdshift's internal error, and crdshift writes nothing into the result.
 */

const converted = (name: string, spec: unknown, extra: Record<string, unknown> = {}) => ({
  ...odd(name),
  apiVersion: `${GROUP}/v2`,
  spec,
  ...extra,
});
const withSpec =
  (spec: () => unknown): AnyConverter =>
  (object) => ({ ...object, spec: spec() });

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

  it("a frozen result that lost a `__proto__` field to the prototype setter: the field is put back in the copy", async () => {
    const spec: unknown = JSON.parse('{"__proto__":{"a":1},"b":2}');
    let returned: Record<string, unknown> | undefined;
    const convert: AnyConverter = (object) =>
      (returned = deepFreeze({ ...object, spec: Object.assign({}, object.spec) }));
    const result = await throughEngine(convert, [odd("a", spec)]);
    expect(JSON.stringify((result.objects?.[0] as { spec: unknown }).spec)).toBe('{"b":2,"__proto__":{"a":1}}');
    expect(Object.hasOwn(returned!.spec as object, "__proto__")).toBe(false); // the converter's object as it was
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

describe("the cases the Workers and Lambda tests run", () => {
  const limits = readConfig({});
  for (const { kind, result, failure, objects } of PLATFORM_CASES) {
    it(kind, async () => {
      const outcome = await convertBody(platformRegistry(), JSON.stringify(platformReview(kind)), { limits });
      expect(outcome.ok).toBe(true);
      const reply = JSON.parse(outcome.ok ? outcome.text : "{}").response;
      if (failure)
        expect([reply.result.status, reply.result.message]).toEqual(["Failure", expect.stringMatching(failure)]);
      else expect(reply.result).toEqual(result);
      expect(reply.convertedObjects).toEqual(objects);
      // A converter's fault, whatever it returned or threw: never crdshift's.
      if (outcome.ok && outcome.failure) expect(outcome.failure.cause).toBe("converter-error");
    });
  }
});
