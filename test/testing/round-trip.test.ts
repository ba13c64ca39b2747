import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { registry } from "../../examples";
import { defineKind } from "../../src/registry";
// The way a converter author imports it: the package's own export.
import { assertRoundTrips, checkKinds } from "crdshift/testing";

describe("the round-trip check", () => {
  it("passes on the examples, trying every ordered pair of versions", async () => {
    const reports = await checkKinds(registry.kinds, { runs: 100, seed: 1 });
    expect(reports.map((r) => [r.kind, r.ok])).toEqual([
      ["CronTab.example.com", true],
      ["CronTab.stable.example.com", true],
    ]);
    expect(reports[0]!.pairs.map((p) => `${p.from}->${p.to}`)).toEqual(["v1->v1beta1", "v1->v1alpha1", "v1beta1->v1", "v1beta1->v1alpha1", "v1alpha1->v1", "v1alpha1->v1beta1"]);
    // Generated objects really went both ways, not only into refusals.
    for (const pair of reports.flatMap((r) => r.pairs)) expect(pair.roundTrips).toBeGreaterThan(10);
  });

  it("fails on a converter that drops a field, naming the pair, the field and a small object", async () => {
    const lossy = defineKind({
      group: "lossy.example.com",
      kind: "Widget",
      versions: {
        v1: z.looseObject({ size: z.optional(z.number()), colour: z.optional(z.string()) }),
        v2: z.looseObject({ size: z.optional(z.number()) }),
      },
      converters: {
        v1: { v2: ({ colour, ...rest }) => rest }, // forgets colour: not lossless
        v2: { v1: (object) => object },
      },
    });
    await expect(assertRoundTrips(lossy, { seed: 7 })).rejects.toThrow(/^Widget\.lossy\.example\.com v1 -> v2 -> v1: not the same after the round trip: colour was "[^"]*", came back missing\n {2}object: \{/);
  });

  it("counts a converter's refusal as a clean Failure, but not an object it cannot take back", async () => {
    const oneWay = defineKind({
      group: "oneway.example.com",
      kind: "Gadget",
      versions: { v1: z.looseObject({ n: z.optional(z.number()) }), v2: z.looseObject({ n: z.optional(z.number()) }) },
      converters: {
        v1: { v2: (object) => object },
        v2: {
          v1: () => {
            throw new Error("v1 is read-only");
          },
        },
      },
    });
    const [report] = await checkKinds([oneWay], { seed: 3, runs: 20 });
    expect(report!.ok).toBe(false);
    expect(report!.failure).toMatch(/^Gadget\.oneway\.example\.com v1 -> v2 -> v1: v2 was accepted, but converting it back failed: .*v1 is read-only/);
  });
});
