import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AnyConverter, GROUP, odd, oddRegistry, oddReview, sharedBomb, throughEngine } from "./converter-results";
import { readResult } from "../../src/conversion/converter-result";
import { ConversionFailure } from "../../src/conversion/conversion-failure";
import { convertBody } from "../../src/conversion/convert-review";
import type { TimeBudget } from "../../src/conversion/time-budget";
import { readConfig } from "../../src/server/config";
import { runs } from "../property-runs";

/**
 * A converter's result is counted as it is read (result-budget.ts): its bytes as JSON, an object
 * at every place it appears, a list by its length before any item is read, and the review's
 * clock, so no result can run the process out of memory or time. And no result within the
 * limit is refused.
 */

const NAME = `object 0 (ns/a, uid uid-a) Odd ${GROUP}/v1 -> ${GROUP}/v2`;
const LIMIT = "CRDSHIFT_MAX_OBJECT_BYTES";

/** The code readResult fails with, or "read". */
function read(result: unknown, maxBytes: number, time?: TimeBudget): string {
  try {
    readResult(result, { last: false, held: undefined, step: "", limits: { maxDepth: 10_000, maxBytes, time } });
    return "read";
  } catch (error) {
    if (error instanceof ConversionFailure) return error.code;
    throw error;
  }
}

const utf8 = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("a result within CRDSHIFT_MAX_OBJECT_BYTES", () => {
  it("is never refused for its size: the count is at most its JSON's bytes (fast-check)", () => {
    const spec = fc.jsonValue({ stringUnit: "binary", maxDepth: 4 });
    fc.assert(
      fc.property(spec, (value) => {
        const result = { spec: value };
        expect(read(result, utf8(result))).toBe("read");
      }),
      { numRuns: runs(150) },
    );
  });

  it("nor one that shares an object between places, counted at each", () => {
    const shared = { list: [1, 2, 3], name: "shared" };
    const result = { spec: { a: shared, b: [shared, shared], c: { d: shared } } };
    expect(read(result, utf8(result))).toBe("read");
  });
});

describe("a result over CRDSHIFT_MAX_OBJECT_BYTES: result-too-large, as soon as the count passes it", () => {
  it("text several times the limit, in fields and in lists", () => {
    const text = "x".repeat(1000);
    expect(read({ spec: { a: text, b: text, c: text } }, 2000)).toBe("result-too-large");
    expect(read({ spec: [text, text, text] }, 2000)).toBe("result-too-large");
  });

  it("a list's length, judged before any of its items is read", () => {
    let reads = 0;
    const list = new Proxy(new Array(2e8), {
      get(target, key) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key) as unknown;
      },
    });
    expect(read({ spec: { list } }, 3 * 1024 * 1024)).toBe("result-too-large");
    expect(reads).toBe(0);
  });

  it("a list's length below the levels copied by recursion (100 levels down)", () => {
    let spec: unknown = new Array(2e8);
    for (let i = 0; i < 100; i++) spec = { d: spec };
    expect(read({ spec }, 3 * 1024 * 1024)).toBe("result-too-large");
  });

  it("one long string that a toJSON returns at many places", () => {
    const text = "x".repeat(64 * 1024);
    const spec = Array.from({ length: 8 }, () => ({ toJSON: () => text }));
    expect(read({ spec }, 256 * 1024)).toBe("result-too-large");
    expect(read({ spec: { a: spec[0], b: spec[1] } }, 256 * 1024)).toBe("read");
  });

  it("a list of the same object a million times", () => {
    const item = { name: "the same object", value: 12345 };
    expect(read({ spec: new Array(1_000_000).fill(item) }, 256 * 1024)).toBe("result-too-large");
  });

  it("objects that each hold the next twice, 2^24 paths deep (and 2^64 below the recursion's levels)", () => {
    expect(read({ spec: sharedBomb(24) }, 256 * 1024)).toBe("result-too-large");
    let deep: unknown = sharedBomb(64);
    for (let i = 0; i < 70; i++) deep = { d: deep };
    expect(read({ spec: deep }, 256 * 1024)).toBe("result-too-large");
  });

  it("fails naming the object, the limit and where the count passed it", async () => {
    const result = await throughEngine((object) => ({ ...object, spec: { list: new Array(2e8) } }));
    expect(result).toEqual({
      cause: "converter-error",
      message: `${NAME}: the converter's result holds a list of 200000000 items at spec.list, more than fit in 3145728 bytes of JSON, this webhook's limit per object (${LIMIT})`,
    });
  });

  it("is CRDSHIFT_MAX_OBJECT_BYTES as configured", async () => {
    const limits = readConfig({ [LIMIT]: String(64 * 1024) });
    const review = JSON.stringify(oddReview([odd("a")]));
    const withNote =
      (size: number): AnyConverter =>
      (object) => ({ ...object, spec: { note: "x".repeat(size) } });
    const small = await convertBody(oddRegistry(withNote(32 * 1024)), review, { limits });
    const large = await convertBody(oddRegistry(withNote(96 * 1024)), review, { limits });
    expect(small.ok && small.failure).toBe(undefined);
    expect(large.ok && large.failure).toEqual({
      cause: "converter-error",
      code: "result-too-large",
      message: `${NAME}: the converter's result passes 65536 bytes of JSON at spec, this webhook's limit per object (${LIMIT}), an object counted at every place it appears`,
    });
  });
});

describe("a result still being read when the review's time runs out: result-too-slow", () => {
  it("is found while it is read, not after", () => {
    // The clock moves only when the converter's getters run: a hundred of them use the budget.
    let calls = 0;
    const time: TimeBudget = { deadline: 100, budgetMs: 100, now: () => calls };
    const list = Array.from({ length: 100_000 }, () => ({
      get value() {
        calls++;
        return 1;
      },
    }));
    expect(read({ spec: list }, 3 * 1024 * 1024, time)).toBe("result-too-slow");
    // Stopped within a few thousand bytes' worth of items of the deadline: the rest never read.
    expect(calls).toBeGreaterThan(100);
    expect(calls).toBeLessThan(2_000);
  });

  it("fails naming the object and the budget", async () => {
    let clock = 0;
    const sent = JSON.stringify(oddReview([odd("a")]));
    const registry = oddRegistry((object) => ({ ...object, spec: { note: "x".repeat(16 * 1024) } }));
    const outcome = await convertBody(registry, sent, {
      limits: readConfig({}),
      // The first look, before the object, finds time left; the next, while it is read, none.
      budget: { deadline: 10, budgetMs: 10, now: () => (clock++ === 0 ? 0 : 20) },
    });
    expect(outcome.ok && outcome.failure).toEqual({
      cause: "converter-error",
      code: "result-too-slow",
      message: `${NAME}: the converter's result was still being read at spec when the conversion budget of 10 ms ran out: its getters, toJSON methods or proxies take too long`,
    });
  });
});
