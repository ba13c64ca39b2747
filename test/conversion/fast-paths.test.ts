import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { convertObjects } from "../../src/conversion/convert-batch";
import { convertBody } from "../../src/conversion/convert-review";
import { finishObject, type KindMemo, startObject } from "../../src/conversion/convert-object";
import type { ReviewLimits } from "../../src/conversion/review-limits";
import { scanBody } from "../../src/json/body-scan";
import { treeShape } from "../../src/json/tree-shape";
import { type GroupVersion, parseApiVersion } from "../../src/kube/api-version";
import { parseReview, parseReviewWithZod, plainlyReview } from "../../src/kube/review-schema";
import { createRegistry, defineKind } from "../../src/conversion";
import { runs } from "../property-runs";

/**
 * The engine's shortcuts against the general path each one stands for, over random reviews:
 * synchronous converters run without a promise (against every converter made
 * asynchronous), the envelope's hand check (against zod), the tree walk's and the scan's
 * `__proto__` findings (against searching every object), and kind lookups reused across objects (against each
 * object looked up afresh). The replies must be the same to the byte.
 */

const RUNS = Number(process.env.FAST_PATH_RUNS ?? runs(150));

/** What a converter does to an object, read from the object itself so both registries agree. */
const MODES = [
  "ok",
  "ok",
  "ok",
  "throw",
  "throw-undefined",
  "array",
  "schema",
  "label",
  "bad-label",
  "nan",
  "proto-assign",
  "rename",
] as const;
type Mode = (typeof MODES)[number];

interface Clock {
  now: number;
}

/** The v1 -> v2 -> v3 chain (and back), each step behaving as the object's `mode` says. */
function step(clock: Clock, from: string, to: string) {
  return (object: any): any => {
    clock.now += typeof object.cost === "number" ? object.cost : 0;
    const mode: Mode = MODES.includes(object.mode) ? object.mode : "ok";
    const { size, width, ...rest } = object;
    const moved = to === "v2" ? { width: size ?? width } : to === "v1" ? { size: width ?? size } : {};
    switch (mode) {
      case "ok":
        return Object.assign(rest, moved);
      case "throw":
        throw new Error(`cannot go from ${from} to ${to}`);
      case "throw-undefined":
        throw undefined;
      case "array":
        return [rest];
      case "schema":
        return to === "v3" ? rest : Object.assign(rest, to === "v2" ? { width: "wide" } : { size: "big" });
      case "label":
        return { ...rest, ...moved, metadata: { ...rest.metadata, labels: { ...rest.metadata?.labels, added: to } } };
      case "bad-label":
        return { ...rest, ...moved, metadata: { ...rest.metadata, labels: { "bad key!": "x" } } };
      case "nan":
        return Object.assign(rest, { extra: Number.NaN });
      case "proto-assign":
        return Object.assign({}, rest, moved);
      case "rename":
        if (rest.metadata) rest.metadata.name = "renamed";
        return Object.assign(rest, moved);
    }
  };
}

/**
 * A registry whose converters behave as the objects say. `asynchronous`: when every converter
 * answers with a promise (a throw becomes a rejection); otherwise only those of objects with
 * `async: true` do.
 */
function registryFor(clock: Clock, asynchronous: boolean) {
  const wrap = (from: string, to: string) => {
    const convert = step(clock, from, to);
    return (object: any) => {
      if (!asynchronous && object.async !== true) return convert(object);
      try {
        return Promise.resolve(convert(object));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  };
  return createRegistry([
    defineKind({
      group: "fast.example.com",
      kind: "Thing",
      versions: {
        v1: z.looseObject({ size: z.optional(z.number()) }),
        v2: z.looseObject({ width: z.optional(z.number()) }),
        v3: z.looseObject({}),
      },
      converters: {
        v1: { v2: wrap("v1", "v2") },
        v2: { v1: wrap("v2", "v1"), v3: wrap("v2", "v3") },
        v3: { v2: wrap("v3", "v2") },
      },
    }),
  ]);
}

const nested = fc.integer({ min: 0, max: 6 }).map((depth) => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { deeper: value };
  return value;
});

const stringMap = fc.dictionary(
  fc.constantFrom("app", "tier", "example.com/owner", "__proto__", "Bad Key"),
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom("a", "b", "") },
    { weight: 1, arbitrary: fc.constantFrom("x".repeat(70), 3 as unknown as string) },
  ),
  { maxKeys: 3 },
);

const metadata = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, "not metadata") },
  {
    weight: 8,
    arbitrary: fc.record(
      {
        name: fc.oneof(
          { weight: 12, arbitrary: fc.constantFrom("a", "b", "c") },
          { weight: 1, arbitrary: fc.constant(7 as unknown as string) },
        ),
        namespace: fc.constantFrom("ns", "other"),
        uid: fc.constantFrom("u-1", "u-2"),
        labels: fc.oneof(stringMap, fc.constant(null)),
        annotations: stringMap,
        finalizers: fc.constant(["keep.example.com/f"]),
        managedFields: fc.constant([{ manager: "kubectl", fieldsV1: { "f:spec": {} } }]),
      },
      { requiredKeys: [] },
    ),
  },
);

/** An object of a review: mostly Things in some version, some not objects, of other kinds or versions. */
const reviewObject: fc.Arbitrary<unknown> = fc
  .oneof(
    { weight: 12, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(3, null, ["an array"], "text") },
  )
  .chain((pick) =>
    pick !== 0
      ? fc.constant(pick)
      : fc
          .record(
            {
              apiVersion: fc.oneof(
                { weight: 20, arbitrary: fc.constantFrom<unknown>("fast.example.com/v1", "fast.example.com/v2") },
                { weight: 3, arbitrary: fc.constantFrom<unknown>("fast.example.com/v1", "fast.example.com/v3") },
                {
                  weight: 1,
                  arbitrary: fc.constantFrom<unknown>(
                    "fast.example.com/v9",
                    "other.example.com/v1",
                    "fast.example.com",
                    4,
                  ),
                },
              ),
              kind: fc.oneof(
                { weight: 20, arbitrary: fc.constant<unknown>("Thing") },
                { weight: 1, arbitrary: fc.constantFrom<unknown>("Other", "", undefined) },
              ),
              metadata,
              mode: fc.constantFrom(...MODES),
              async: fc.boolean(),
              cost: fc.constantFrom(0, 0, 1, 5),
              size: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constant("large" as unknown as number)),
              spec: nested,
              proto: fc.option(
                fc.oneof(fc.constant<unknown>({ held: true }), fc.constant<unknown>(["held"]), fc.constant(1)),
              ),
            },
            { requiredKeys: ["apiVersion", "kind", "mode", "async", "cost"] },
          )
          .map(({ proto, ...object }) => {
            // A `__proto__` field as JSON.parse makes one: an own, enumerable data property.
            if (proto !== undefined && proto !== null)
              Object.defineProperty(object, "__proto__", {
                value: proto,
                enumerable: true,
                writable: true,
                configurable: true,
              });
            return object;
          }),
  );

const limits: fc.Arbitrary<ReviewLimits> = fc.record({
  maxDepth: fc.constantFrom(9, 10_000, 10_000, 10_000),
  maxObjects: fc.constantFrom(3, 100_000, 100_000),
  maxObjectBytes: fc.constantFrom(250, 3 * 1024 * 1024, 3 * 1024 * 1024, 3 * 1024 * 1024),
  replyLimitBytes: fc.constantFrom(undefined, 600, 6 * 1024 * 1024),
});

const desiredVersion = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("fast.example.com/v2", "fast.example.com/v1", "fast.example.com/v3") },
  { weight: 1, arbitrary: fc.constantFrom("fast", "") },
);

function reviewText(apiVersion: string, desired: string, objects: unknown[]): string {
  return `${JSON.stringify({
    kind: "ConversionReview",
    apiVersion,
    request: { uid: "u-1", desiredAPIVersion: desired, objects },
    response: { uid: "", convertedObjects: null, result: { metadata: {} } },
  })}\n`;
}

describe("the engine's shortcuts give the replies of its general path", () => {
  it("synchronous converters run without a promise: the same reply as every converter made asynchronous", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(reviewObject, { maxLength: 6 }),
        desiredVersion,
        limits,
        fc.option(fc.integer({ min: 0, max: 30 }), { freq: 3 }),
        fc.constantFrom("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"),
        async (objects, desired, reviewLimits, deadline, apiVersion) => {
          const text = reviewText(apiVersion, desired, objects);
          const run = (asynchronous: boolean) => {
            // The clock starts at 5: a deadline may have passed before the first object.
            const clock: Clock = { now: 5 };
            const budget = deadline === null ? undefined : { deadline, budgetMs: deadline, now: () => clock.now };
            return convertBody(registryFor(clock, asynchronous), text, { limits: reviewLimits, budget });
          };
          const fast = await run(false);
          const general = await run(true);
          expect(fast).toEqual(general);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("the same batch result with synchronous converters as with every converter made asynchronous", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(reviewObject, { maxLength: 6 }), desiredVersion, async (objects, desired) => {
        const fast = await convertObjects(registryFor({ now: 0 }, false), desired, objects);
        const general = await convertObjects(registryFor({ now: 0 }, true), desired, objects);
        expect(fast).toEqual(general);
      }),
      { numRuns: RUNS },
    );
  });

  it("the tree walk finds every __proto__ key: searching only when it says so converts as searching always", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(reviewObject, { maxLength: 5 }), async (generated) => {
        // Objects as JSON.parse makes them, `__proto__` fields included.
        const objects = JSON.parse(JSON.stringify(generated)) as unknown[];
        const { protoKey } = treeShape(objects);
        expect(protoKey).toBe(/"__proto__":/.test(JSON.stringify(objects)));
        const walked = await convertObjects(registryFor({ now: 0 }, false), "fast.example.com/v2", objects, {
          mayHoldProtoKeys: protoKey,
        });
        const searched = await convertObjects(
          registryFor({ now: 0 }, false),
          "fast.example.com/v2",
          JSON.parse(JSON.stringify(generated)) as unknown[],
          { mayHoldProtoKeys: true },
        );
        expect(JSON.stringify(walked)).toBe(JSON.stringify(searched));
      }),
      { numRuns: RUNS },
    );
  });

  it("the scan finds every __proto__ key: searching only when it says so converts as searching always", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(reviewObject, { maxLength: 5 }), fc.boolean(), async (generated, escape) => {
        // As a large body reaches the engine: text, scanned, then parsed; `__proto__` maybe escaped.
        let text = JSON.stringify(generated);
        if (escape) text = text.replaceAll('"__proto__"', '"\\u005f_proto__"');
        const { protoKey } = scanBody(text);
        const scanned = await convertObjects(
          registryFor({ now: 0 }, false),
          "fast.example.com/v2",
          JSON.parse(text) as unknown[],
          { mayHoldProtoKeys: protoKey },
        );
        const searched = await convertObjects(
          registryFor({ now: 0 }, false),
          "fast.example.com/v2",
          JSON.parse(text) as unknown[],
          { mayHoldProtoKeys: true },
        );
        expect(JSON.stringify(scanned)).toBe(JSON.stringify(searched));
      }),
      { numRuns: RUNS },
    );
  });

  it("kind lookups reused across a review's objects: each object's outcome as if looked up afresh", async () => {
    const outcome = async (object: unknown, desired: GroupVersion, memo: KindMemo | undefined) => {
      const registry = registryFor({ now: 0 }, false);
      try {
        const started = startObject(registry, object as Record<string, unknown>, desired, true, memo);
        const output = started instanceof Promise ? await started : started;
        return { converted: JSON.stringify(finishObject(output, object as Record<string, unknown>, "x/y")) };
      } catch (error) {
        return { thrown: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
      }
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(reviewObject, { maxLength: 8 }),
        fc.constantFrom("fast.example.com/v2", "fast.example.com/v1"),
        async (objects, desiredText) => {
          const desired = parseApiVersion(desiredText)!;
          const memo: KindMemo = {};
          for (const object of objects) {
            if (typeof object !== "object" || object === null || Array.isArray(object)) continue;
            const shared = await outcome(JSON.parse(JSON.stringify(object)), desired, memo);
            const fresh = await outcome(JSON.parse(JSON.stringify(object)), desired, undefined);
            expect(shared).toEqual(fresh);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("the envelope's hand check accepts only what zod accepts, and answers the same review", () => {
    const anything = fc.constantFrom<unknown>(undefined, null, 1, "s", [], {}, ["x"]);
    const request = fc.oneof(
      anything,
      fc.record(
        {
          uid: fc.oneof(fc.constant("u"), anything),
          desiredAPIVersion: fc.oneof(fc.constant("a.example.com/v1"), anything),
          objects: fc.oneof(fc.constant([{ a: 1 }, 2]), fc.constant([]), anything),
          extra: anything,
        },
        { requiredKeys: [] },
      ),
    );
    const envelope = fc.oneof(
      { weight: 1, arbitrary: anything },
      {
        weight: 6,
        arbitrary: fc.record(
          {
            apiVersion: fc.oneof(
              fc.constantFrom("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", "apiextensions.k8s.io/v2"),
              anything,
            ),
            kind: fc.oneof(fc.constantFrom("ConversionReview", "conversionreview"), anything),
            request,
            response: anything,
          },
          { requiredKeys: [] },
        ),
      },
    );
    fc.assert(
      fc.property(envelope, fc.boolean(), (generated, throughJson) => {
        // As a body decodes (undefined fields dropped, `__proto__` a plain key) and as built.
        const value = throughJson && generated !== undefined ? JSON.parse(JSON.stringify(generated)) : generated;
        const byZod = parseReviewWithZod(value);
        if (plainlyReview(value)) expect(byZod.ok).toBe(true);
        expect(parseReview(value)).toEqual(byZod);
      }),
      { numRuns: RUNS * 4 },
    );
  });
});
