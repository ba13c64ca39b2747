import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { type AnyConverter, GROUP, hostileProxy, odd, oddRegistry, throughEngine } from "./converter-results";
import { convertObjects, createRegistry, defineKind } from "../../src/conversion";
import { judgeFailure } from "../../src/check/refusals";
import { runs } from "../property-runs";

/**
 * Whatever a converter throws, or rejects with, or a getter of its result or a refinement of its
 * schema throws: the converter's error (its cause `converter-error`), with a description that
 * could be printed, never crdshift's internal error, and never a throw out of crdshift.
 */

const NAME = `object 0 (ns/a, uid uid-a) Odd ${GROUP}/v1 -> ${GROUP}/v2`;

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function messageThrows(type: ErrorConstructor = Error): Error {
  const error = new type("never seen");
  Object.defineProperty(error, "message", {
    get() {
      throw hostileProxy();
    },
  });
  return error;
}

/** Values that cannot be printed the ordinary way, and what the failure says of each. */
const UNPRINTABLE: Array<[string, () => unknown, string]> = [
  [
    "Object.create(null)",
    () => Object.create(null),
    "an object that cannot be converted to a string ([object Object])",
  ],
  [
    "an object whose toString throws",
    () => ({
      toString() {
        throw new Error("no text");
      },
    }),
    "an object that cannot be converted to a string ([object Object])",
  ],
  [
    "an object whose toString returns an object",
    () => ({ toString: () => ({}), valueOf: () => ({}) }),
    "an object that cannot be converted to a string ([object Object])",
  ],
  ["a proxy whose every trap throws", hostileProxy, "an object that cannot be converted to a string"],
  ["a revoked proxy", revoked, "an object that cannot be converted to a string"],
  ["an Error whose message getter throws", () => messageThrows(), "Error (without a readable message)"],
  ["a TypeError without a message", () => new TypeError(), "TypeError"],
  ["a symbol", () => Symbol("why"), "Symbol(why)"],
  ["undefined", () => undefined, "undefined"],
  ["null", () => null, "null"],
];

describe("whatever a converter throws is the converter's error, described", () => {
  for (const [what, value, text] of UNPRINTABLE) {
    it(`${what}, thrown`, async () => {
      const result = await throughEngine(() => {
        throw value();
      });
      expect(result).toEqual({ cause: "converter-error", message: `${NAME}: the converter threw ${text}` });
    });

    it(`${what}, a promise rejected with it`, async () => {
      const result = await throughEngine(() => Promise.reject(value()));
      expect(result).toEqual({ cause: "converter-error", message: `${NAME}: the converter threw ${text}` });
    });
  }

  it("keeps what it threw, for the test kit to judge, which calls a value that will not say what it is a bug", async () => {
    const thrown = hostileProxy();
    const result = await convertObjects(
      oddRegistry(() => Promise.reject(thrown)),
      `${GROUP}/v2`,
      [odd("a")],
    );
    expect(result).toMatchObject({ ok: false, cause: "converter-error", code: "converter-threw" });
    expect(!result.ok && result.thrown).toBe(thrown);
    expect(judgeFailure(!result.ok ? result : ({} as never))).toEqual({
      verdict: "bug",
      text: expect.stringMatching(/^the converter threw an object .*, not an Error\): a bug in the converter/),
    });
  });

  it("a TypeError whose message getter throws is a bug, named by its type", async () => {
    const result = await convertObjects(
      oddRegistry(() => {
        throw messageThrows(TypeError);
      }),
      `${GROUP}/v2`,
      [odd("a")],
    );
    expect(judgeFailure(!result.ok ? result : ({} as never)).text).toMatch(
      /^TypeError: the converter threw TypeError \(without a readable message\): a bug in the converter/,
    );
  });

  it("any value at all, thrown or rejected with: converter-error naming the object (fast-check)", async () => {
    // Made inside the property: fast-check itself would trip over a proxy it had to keep or print.
    const anyThrown = fc.oneof(
      fc
        .anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true })
        .map((value) => () => value),
      fc.constantFrom(...UNPRINTABLE.map(([, value]) => value)),
    );
    await fc.assert(
      fc.asyncProperty(anyThrown, fc.boolean(), async (make, rejects) => {
        const thrown = make();
        const convert: AnyConverter = rejects
          ? () => Promise.reject(thrown)
          : () => {
              throw thrown;
            };
        const result = await throughEngine(convert);
        expect(result.cause).toBe("converter-error");
        expect(result.message).toMatch(/^object 0 \(ns\/a, uid uid-a\) Odd /);
      }),
      { numRuns: runs(200) },
    );
  });
});

describe("what a result's getter or a schema's refinement throws is described the same way", () => {
  // An Error with an empty message reads `TypeError: ` there, as any Error reads `name: message`.
  for (const [what, value, text] of UNPRINTABLE.filter(([what]) => what !== "a TypeError without a message")) {
    it(`${what}, from a getter of the result`, async () => {
      const result = await throughEngine((object) => ({
        ...object,
        spec: {
          get size() {
            throw value();
          },
        },
      }));
      expect(result).toEqual({
        cause: "converter-error",
        message: `${NAME}: the converter's result could not be read at spec.size: ${text}`,
      });
    });
  }

  it("a refinement of the target schema that throws what cannot be printed", async () => {
    const refused = z.looseObject({}).check(
      z.refine(() => {
        throw Object.create(null);
      }),
    );
    const registry = createRegistry([
      defineKind({
        group: GROUP,
        kind: "Odd",
        versions: { v1: z.looseObject({}), v2: refused },
        converters: { v1: { v2: (o) => o }, v2: { v1: (o) => o } },
      }),
    ]);
    const result = await convertObjects(registry, `${GROUP}/v2`, [odd("a")]);
    expect(result).toMatchObject({
      ok: false,
      cause: "converter-error",
      code: "result-schema-mismatch",
      problem:
        "the converter's result does not match the v2 schema: checking it threw an object that cannot be converted to a string ([object Object])",
    });
  });
});
