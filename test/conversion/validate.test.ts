import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import * as zm from "zod/mini";
import * as core from "zod/v4/core";
import { certainlyValid } from "../../src/conversion/validate";
import { valueArbitraryFor } from "../../src/check/arbitrary";
import { runs } from "../property-runs";

/** Random schemas of the kinds converters are written with, and some the fast path must refuse to judge. */
const schema: fc.Arbitrary<core.$ZodType> = fc.letrec<{ node: core.$ZodType }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<core.$ZodType>(
      z.string(),
      z.number(),
      z.int(),
      z.boolean(),
      z.null(),
      z.unknown(),
      z.literal("on"),
      z.enum(["A", "B"]),
      z.email(),
      z.string().min(2),
      z.number().positive(),
      zm.string(),
      zm.optional(zm.number()),
      z.union([z.string(), z.number()]),
      z.string().refine((s) => s.length < 3),
      z.string().transform((s) => s.length),
    ),
    tie("node").map((inner) => z.optional(inner)),
    tie("node").map((inner) => z.nullable(inner)),
    tie("node").map((inner) => z.array(inner)),
    fc
      .tuple(
        fc.dictionary(fc.constantFrom("a", "b", "spec", "__proto__", "constructor"), tie("node"), { maxKeys: 3 }),
        fc.constantFrom("strip", "loose", "strict", "catchall", "mini"),
      )
      .map(([shape, mode]) => {
        if (mode === "mini") return zm.looseObject(shape as Record<string, any>);
        const object = z.object(shape as Record<string, any>);
        return mode === "loose"
          ? object.loose()
          : mode === "strict"
            ? object.strict()
            : mode === "catchall"
              ? object.catchall(z.number())
              : object;
      }),
  ),
})).node;

describe("the cheaper validation path", () => {
  it("never calls valid what zod refuses, on random schemas and values valid, near-valid and random", () => {
    fc.assert(
      fc.property(
        schema.chain((s) =>
          fc.tuple(
            fc.constant(s),
            fc.oneof(
              fc.jsonValue(),
              valueArbitraryFor(s, { unknownFields: true }),
              valueArbitraryFor(s, { partial: true }),
              // Fields present with the value undefined (a converter's output may hold them).
              fc
                .tuple(valueArbitraryFor(s, { partial: true }), fc.subarray(["a", "b", "spec", "constructor"]))
                .map(([v, keys]) =>
                  typeof v === "object" && v !== null && !Array.isArray(v)
                    ? Object.assign({ ...v }, Object.fromEntries(keys.map((k) => [k, undefined])))
                    : v,
                ),
            ),
          ),
        ),
        ([s, value]) => {
          if (certainlyValid(s, value)) expect(core.safeParse(s, value).success).toBe(true);
        },
      ),
      { numRuns: Number(process.env.VALIDATE_RUNS ?? runs(2000)) },
    );
  }, 300_000);

  it("decides the common case itself: loose objects of optional fields, valid or not", () => {
    const cronTab = zm.looseObject({
      spec: zm.optional(zm.looseObject({ cronSpec: zm.optional(zm.string()), replicas: zm.optional(zm.number()) })),
    });
    expect(certainlyValid(cronTab, { apiVersion: "x", spec: { cronSpec: "* * * * *", replicas: 3, other: [1] } })).toBe(
      true,
    );
    expect(certainlyValid(cronTab, { spec: { replicas: "3" } })).toBe(false);
    expect(certainlyValid(cronTab, { spec: { replicas: Infinity } })).toBe(false);
    // What it cannot judge goes to zod: a format is a check.
    expect(certainlyValid(z.object({ mail: z.email() }), { mail: "a@b.co" })).toBe(false);
  });
});

describe("recursive schemas (a tree of nodes, written with zod's getters)", () => {
  const node: z.ZodType = z.looseObject({
    name: z.string().optional(),
    get child() {
      return node.optional();
    },
  });

  it("are judged without running the check into itself: a leaf here, anything deeper by zod", () => {
    expect(certainlyValid(node, { name: "leaf" })).toBe(true);
    expect(certainlyValid(node, { name: "root", child: { name: "leaf" } })).toBe(false);
    expect(certainlyValid(node, { name: 1 })).toBe(false);
  });
});
