import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { convertBody, createRegistry, defineKind } from "../../src/conversion";
import { readConfig } from "../../src/server/config";
import { runs } from "../property-runs";

// A large body's objects are decoded one at a time as the batch reaches each, never as one tree:
// whatever the body, the outcome must be the one decoding it whole gives (reply, failure, or
// refusal, with the same words).

const GROUP = "onebyone.example.com";
const loose = z.looseObject({});
const registry = createRegistry([
  defineKind({
    group: GROUP,
    kind: "Dial",
    versions: { v1: loose, v2: loose },
    converters: {
      v1: {
        v2: (object) => {
          if ((object as { spec?: { refuse?: unknown } }).spec?.refuse) throw new Error("refused");
          return object;
        },
      },
      v2: { v1: (object) => object },
    },
  }),
]);

const dial = fc.record({
  apiVersion: fc.constantFrom(`${GROUP}/v1`, `${GROUP}/v2`, "other.example.com/v1"),
  kind: fc.constantFrom("Dial", "Knob"),
  metadata: fc.record(
    { name: fc.string({ maxLength: 8 }), namespace: fc.constantFrom("a", "b") },
    { requiredKeys: [] },
  ),
  spec: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ refuse: fc.boolean() })),
});
const element = fc.oneof({ weight: 8, arbitrary: dial }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

/** The outcome as decoded whole (parsed first) and one object at a time (scanned first: a small object size limit). */
async function both(text: string) {
  const config = readConfig({});
  const whole = await convertBody(registry, text, { limits: config });
  const objectBytes = Math.max(Math.ceil(text.length * 1.5), 16);
  const oneByOne = await convertBody(registry, text, { limits: { ...config, maxObjectBytes: objectBytes } });
  return { whole, oneByOne };
}

const strip = (outcome: Awaited<ReturnType<typeof convertBody>>) =>
  outcome.ok
    ? { text: outcome.text, failure: outcome.failure, objects: outcome.review.request.objects.length }
    : outcome;

describe("objects decoded one at a time", () => {
  it("give the outcome decoding the body whole gives, whatever the objects, the layout or a broken byte", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(element, { maxLength: 6 }),
        fc.boolean(),
        fc.option(fc.tuple(fc.nat(), fc.constantFrom("}", "x", ",", "]", "")), { nil: undefined }),
        async (objects, indent, breakAt) => {
          let text = JSON.stringify(
            {
              apiVersion: "apiextensions.k8s.io/v1",
              kind: "ConversionReview",
              request: { uid: "u", desiredAPIVersion: `${GROUP}/v2`, objects },
            },
            null,
            indent ? 1 : undefined,
          );
          if (breakAt) {
            const at = breakAt[0] % text.length;
            text = text.slice(0, at) + breakAt[1] + text.slice(at + 1);
          }
          const { whole, oneByOne } = await both(text);
          // A scanned body's envelope is judged from the scan, in words of its own (review-limits.ts).
          if (!whole.ok && whole.reason === "invalid-review")
            expect(oneByOne).toMatchObject({ reason: "invalid-review" });
          else expect(strip(oneByOne)).toEqual(strip(whole));
        },
      ),
      { numRuns: runs(400) },
    );
  });

  it("refuse as not JSON a body whose objects array is closed by a brace, whatever its objects' outcome", async () => {
    // Found by the property above: the span cut out of the envelope swallowed the broken byte.
    const objects = [
      { apiVersion: `${GROUP}/v1`, kind: "Dial", metadata: { name: "a" } },
      { apiVersion: "other.example.com/v1", kind: "Dial", metadata: { name: "b" } },
    ];
    const text = JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { uid: "u", desiredAPIVersion: `${GROUP}/v2`, objects },
    }).replace(/\]\}\}$/, "}}}");
    const { whole, oneByOne } = await both(text);
    expect(whole).toMatchObject({ ok: false, reason: "invalid-json" });
    expect(oneByOne).toEqual(whole);
  });

  it("names every object in the report, those after a failure too", async () => {
    const objects = ["a", "b", "c"].map((name) => ({
      apiVersion: `${GROUP}/v1`,
      kind: "Dial",
      metadata: { name },
      spec: { refuse: name === "a" },
    }));
    const text = JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { uid: "u", desiredAPIVersion: `${GROUP}/v2`, objects },
    });
    const { oneByOne } = await both(text);
    if (!oneByOne.ok) throw new Error(oneByOne.message);
    expect(oneByOne.failure).toMatchObject({ code: "converter-threw" });
    expect(oneByOne.review.request.objects).toEqual(
      ["a", "b", "c"].map((name) => ({
        apiVersion: `${GROUP}/v1`,
        kind: "Dial",
        metadata: { name, namespace: undefined, uid: undefined },
      })),
    );
  });
});
