import { expect, it } from "vitest";
import * as z from "zod";
import { checkKind } from "../../src/check/round-trip";
import { defineKind } from "../../src/conversion";

it("a zod schema no value meets is a finding of the round trips, not a hang or a crash", async () => {
  const spec = z.object({ name: z.string().regex(/^a$/).min(2) });
  const kind = defineKind({
    group: "example.com",
    kind: "Thing",
    versions: { v1: z.object({ spec }), v2: z.object({ spec }) },
    converters: { v1: { v2: (object) => object }, v2: { v1: (object) => object } },
  });
  const report = await checkKind(kind, { runs: 20, seed: 1 });
  expect(report.ok).toBe(false);
  expect(report.failure).toMatch(
    /^Thing\.example\.com v\d: cannot generate objects from its zod schema: no value meets pattern \^a\$, minLength 2/,
  );
}, 60_000);
