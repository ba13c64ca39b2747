import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { twoVersionCrd } from "../testing/two-version-crd";
import { defineKind } from "../../src/conversion";
import { checkAgainstCrd } from "../../src/check/crd-check";

// A kind that copies objects through, so any failure is the CRD's constraints, not a converter.
const loose = z.looseObject({ spec: z.optional(z.looseObject({})) });
const copying = defineKind({
  group: "example.com",
  kind: "Thing",
  versions: { v1: loose, v2: loose },
  converters: { v1: { v2: (object) => object }, v2: { v1: (object) => object } },
});

/** checkAgainstCrd on a CRD whose spec holds `field` in both versions, required or not. */
async function checkWith(field: object, required = false) {
  const spec = { type: "object", properties: { field }, ...(required ? { required: ["field"] } : {}) };
  const crd = twoVersionCrd({ group: "example.com", kind: "Thing", plural: "things" }, spec, spec);
  return checkAgainstCrd([copying], crd, { runs: 30, seed: 1 });
}

// Each of these hung `check` or took gigabytes: now each is a finding naming the place and the
// bound, within the test's timeout (generous for a loaded machine; they used to run for minutes).
const BOUNDED = 60_000;

describe("constraints check cannot generate for are findings, not hangs", () => {
  it(
    "a pattern no string of the length meets",
    async () => {
      const report = await checkWith({ type: "string", pattern: "^a$", minLength: 2 });
      expect(report.ok).toBe(false);
      expect(report.failure).toMatch(
        /^Thing\.example\.com v\d: cannot generate objects: spec\.field: no value meets pattern \^a\$, minLength 2 \(none of 2000 candidates did/,
      );
    },
    BOUNDED,
  );

  it(
    "more required fields than maxProperties, bounds that cross",
    async () => {
      const required = await checkWith({
        type: "object",
        maxProperties: 1,
        required: ["a", "b"],
        properties: { a: { type: "string" }, b: { type: "string" } },
      });
      // A finding of each version, among the run's others, counted on the closing line.
      expect(required.failure).toMatch(
        /^Thing\.example\.com v1: cannot generate objects: spec\.field: 2 required fields \(a, b\) but maxProperties 1: no object there is valid\n/,
      );
      expect(required.failure).toContain(
        "Thing.example.com v2: cannot generate objects: spec.field: 2 required fields",
      );
      expect(required.findings.map((finding) => finding.place)).toEqual(["v1", "v2"]);
      expect((await checkWith({ type: "string", minLength: 5, maxLength: 3 })).failure).toContain(
        "spec.field: minLength 5 is above maxLength 3",
      );
      expect((await checkWith({ type: "integer", minimum: 1.2, maximum: 1.8 })).failure).toContain(
        "spec.field: minimum 1.2 and maximum 1.8 leave no value",
      );
      // fast-check's uniqueArray draws forever for more unique items than there are values.
      expect(
        (await checkWith({ type: "array", uniqueItems: true, minItems: 3, items: { type: "boolean" } })).failure,
      ).toContain("spec.field: minItems 3 of unique items, but the item schema allows only 2 distinct value(s)");
      expect(
        (
          await checkWith({
            type: "array",
            "x-kubernetes-list-type": "set",
            minItems: 4,
            items: { type: "integer", enum: [1, 2, 3] },
          })
        ).failure,
      ).toContain("allows only 3 distinct value(s)");
      expect((await checkWith({ type: "string", enum: ["a", "bb"], minLength: 3 })).failure).toContain(
        "spec.field: no enum value meets the node's other constraints",
      );
    },
    BOUNDED,
  );

  it(
    "sizes no object can have: minLength 1e8, minItems 5e7, minProperties 1e7",
    async () => {
      for (const [field, bound] of [
        [{ type: "string", minLength: 1e8 }, "minLength 100000000"],
        [{ type: "array", minItems: 5e7, items: { type: "string" } }, "minItems 50000000"],
        [{ type: "object", minProperties: 1e7, additionalProperties: { type: "string" } }, "minProperties 10000000"],
        // Nested: a thousand lists of a thousand strings of ten characters, and not even required.
        [
          {
            type: "array",
            minItems: 1000,
            items: { type: "array", minItems: 1000, items: { minLength: 10, type: "string" } },
          },
          "minItems 1000",
        ],
      ] as const) {
        const report = await checkWith(field);
        expect(report.ok).toBe(false);
        expect(report.failure).toMatch(
          new RegExp(
            `^Thing\\.example\\.com v1: cannot generate objects: spec\\.field: ${bound} makes every value there at least [\\d,]+ bytes of JSON, more than the 3 MiB the apiserver takes in a request`,
          ),
        );
      }
      const large = await checkWith({ type: "array", minItems: 200_000, items: { type: "integer" } });
      expect(large.failure).toContain("beyond the 256 KiB check generates for one place");
    },
    BOUNDED,
  );

  it(
    "still generates what it can: a field of a thousand items, a pattern only RE2 reads",
    async () => {
      expect((await checkWith({ type: "array", minItems: 1000, maxItems: 1000, items: { type: "integer" } })).ok).toBe(
        true,
      );
      const re2 = await checkWith({ type: "string", pattern: "(?i)^ab\\pL\\z" }, true);
      expect(re2.failure).toBeUndefined();
      expect(re2.pairs.length, "pairs checked").toBeGreaterThan(0);
      expect(re2.pairs.every((pair) => pair.roundTrips > 0)).toBe(true);
    },
    BOUNDED,
  );
});
