import { expect, it } from "vitest";
import * as z from "zod/mini";
import { twoVersionCrd } from "./two-version-crd";
import { defineKind } from "../../src/conversion";
import { checkAgainstCrd } from "../../src/check/crd-check";

/** v1's spec has a rule this check cannot evaluate; v2's has one it can, which v1 -> v2 breaks for size 1. */
const crd = twoVersionCrd(
  { group: "example.com", kind: "Thing", plural: "things" },
  {
    type: "object",
    required: ["size"],
    "x-kubernetes-validations": [{ rule: "isSorted([1]) || true" }],
    properties: { size: { type: "integer", minimum: 1, maximum: 5 } },
  },
  {
    type: "object",
    required: ["size"],
    "x-kubernetes-validations": [{ rule: "self.size >= 1" }],
    properties: { size: { type: "integer", minimum: 0, maximum: 4 } },
  },
);

const schema = z.looseObject({ spec: z.optional(z.looseObject({ size: z.optional(z.number()) })) });
const shift =
  (by: number) =>
  (object: Record<string, unknown>): Record<string, unknown> => {
    const spec = object.spec as { size?: unknown } | undefined;
    return typeof spec?.size === "number" ? { ...object, spec: { ...spec, size: spec.size + by } } : object;
  };
const thing = defineKind({
  group: "example.com",
  kind: "Thing",
  versions: { v1: schema, v2: schema },
  converters: { v1: { v2: shift(-1) }, v2: { v1: shift(1) } },
});

it("a source rule it cannot evaluate lists the target's rules as not checked, never passes them silently", async () => {
  const report = await checkAgainstCrd([thing], crd, { runs: 50, seed: 1 });
  expect(report.notChecked).toContainEqual({
    version: "v2",
    path: "spec",
    rule: "self.size >= 1",
    reason: expect.stringContaining("inputs' v1 rules could not all be evaluated"),
  });
});
