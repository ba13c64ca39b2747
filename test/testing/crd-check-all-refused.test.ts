import { expect, it } from "vitest";
import * as z from "zod/mini";
import { twoVersionCrd } from "./two-version-crd";
import { defineKind } from "../../src/conversion";
import { checkAgainstCrd } from "../../src/check/crd-check";

const size = { type: "object", properties: { size: { type: "integer", minimum: 0, maximum: 100 } } };
const crd = twoVersionCrd({ group: "example.com", kind: "Thing", plural: "things" }, size, size);

const spec = z.optional(z.looseObject({ size: z.optional(z.number()) }));
const thing = (refuseAll: boolean) =>
  defineKind({
    group: "example.com",
    kind: "Thing",
    versions: { v1: z.looseObject({ spec }), v2: z.looseObject({ spec }) },
    // Declared, so each refusal alone is no finding; refusing every object still proves nothing.
    refusals: { "v2->v1": { "not-served": "v1 is not served any more" } },
    converters: {
      v1: { v2: (object) => object },
      v2: {
        v1: (object, { refuse }) => {
          if (refuseAll) throw refuse("not-served", "v1 is not served any more");
          return object;
        },
      },
    },
  });

it("fails a pair whose converter refused every object the CRD accepts, declared or not: nothing was proved", async () => {
  const report = await checkAgainstCrd([thing(true)], crd, { runs: 20, seed: 1 });
  expect(report.ok).toBe(false);
  expect(report.failure).toMatch(
    /Thing\.example\.com v2 -> v1 -> v2: only 0 of 20 objects made the round trip: of 200 generated, 200 were refused as declared \(200 "not-served"/,
  );
  expect((await checkAgainstCrd([thing(false)], crd, { runs: 20, seed: 1 })).ok).toBe(true);
});
