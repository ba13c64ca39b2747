import { afterAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { registry as examples } from "../../examples";
import { defineKind } from "../../src/conversion";
import { assertMatchesCrd, checkAgainstCrd } from "../../src/check/crd-check";
import { loadGenerated, readCrdFile, scratchDir } from "../codegen/generated";
import { gadget } from "./gadget-kind";

const [gadgetCrd] = readCrdFile("test/fixtures/crds/gadgets.example.com.yaml");
const [widgetCrd] = readCrdFile("test/fixtures/crds/widgets.example.com.yaml");
const scratch = scratchDir("crd-check");
afterAll(() => scratch.remove());

/** A Widget kind whose v1 schema is `spec`, the same for v1beta1, with copying converters. */
function widgetWith(spec: z.ZodMiniType) {
  const schema = z.looseObject({ spec: z.optional(spec) });
  return defineKind({
    group: "example.com",
    kind: "Widget",
    versions: { v1: schema, v1beta1: schema },
    converters: { v1: { v1beta1: (o) => o }, v1beta1: { v1: (o) => o } },
  });
}

describe("checkAgainstCrd", () => {
  it("passes the examples against their CRDs, counting round trips and refusals", async () => {
    let checked = 0;
    for (const file of ["examples/crds/crontabs.example.com.yaml", "examples/crds/crontabs.stable.example.com.yaml"]) {
      for (const crd of readCrdFile(file)) {
        checked++;
        const report = await checkAgainstCrd(examples, crd, { runs: 50 });
        expect(report.failure).toBeUndefined();
        // Both examples serve more than one version: an empty report would pass the loops below.
        expect(report.versions.length).toBeGreaterThan(1);
        expect(report.versions.every((version) => version.accepted === 50)).toBe(true);
        expect(report.pairs.length).toBeGreaterThan(0);
        // Refusals aside, the runs asked for round-tripped; every object generated is accounted for.
        for (const pair of report.pairs) {
          expect(pair.roundTrips).toBe(50);
          expect(pair.generated).toBe(pair.roundTrips + pair.refused + pair.refusedOutsideCrd);
        }
      }
    }
    expect(checked, "CRDs read from the two example files").toBe(2);
  });

  it("passes a generated kind whose versions declare the same fields, as generated", async () => {
    const { kind } = await loadGenerated(widgetCrd!, scratch.dir);
    expect((await checkAgainstCrd([kind], widgetCrd!, { runs: 50 })).failure).toBeUndefined();
  });

  it("fails a schema stricter than the CRD, naming the version, the field and a shrunk object", async () => {
    const number = await checkAgainstCrd([widgetWith(z.looseObject({ bytes: z.optional(z.number()) }))], widgetCrd!, {
      seed: 1,
    });
    expect(number.failure).toMatch(
      /^Widget\.example\.com v1: the registry's schema refuses an object the CRD accepts: spec\.bytes: expected number, received bigint \(-?\d{16,}\)\n/,
    );
    expect(number.failure).toMatch(/\n {2}object: \{.*"bytes":-?\d{16,}.*\}\n/);

    const enumeration = await checkAgainstCrd(
      [widgetWith(z.looseObject({ mode: z.optional(z.enum(["Small"])) }))],
      widgetCrd!,
      { seed: 1 },
    );
    expect(enumeration.failure).toMatch(
      /^Widget\.example\.com v1: the registry's schema refuses an object the CRD accepts( \(a partial object, as server-side apply sends\))?: spec\.mode: /,
    );
    expect(enumeration.failure).toContain('"spec":{"mode":"Large"}');

    const required = await checkAgainstCrd([widgetWith(z.looseObject({ size: z.number() }))], widgetCrd!, { seed: 1 });
    expect(required.failure).toMatch(
      /^Widget\.example\.com v1: the registry's schema refuses an object the CRD accepts \(a partial object, as server-side apply sends\): spec\.size: /,
    );
  });

  it("fails generated copies between versions that differ, naming the field lost and those to handle; passes once they are written", async () => {
    const { kind } = await loadGenerated(gadgetCrd!, scratch.dir);
    const todo = await checkAgainstCrd([kind], gadgetCrd!, { seed: 7 });
    expect(todo.ok).toBe(false);
    expect(todo.failure).toMatch(/^Gadget\.example\.com (v2 -> v1 -> v2|v1 -> v2 -> v1)( \(a partial object\))?: /);
    // Every field left to handle is named in the one run, each once, and counted.
    for (const field of ["spec.hostPort", "spec.host", "spec.port"])
      expect(todo.findings.filter((finding) => finding.field === field)).toHaveLength(1);
    expect(todo.failure!.endsWith(`\n\nGadget.example.com: ${todo.findings.length} findings`)).toBe(true);
    expect(todo.failure).toContain("fields to handle (from the CRD):");
    expect(todo.failure).toContain("only v1 has spec.hostPort");
    expect(todo.failure).toContain("spec.size is an integer in v2, a string in v1");

    const written = await checkAgainstCrd([gadget], gadgetCrd!, { runs: 150 });
    expect(written.failure).toBeUndefined();
    expect(written.pairs.map((pair) => [pair.from, pair.to])).toEqual([
      ["v2", "v1"],
      ["v1", "v2"],
    ]);
    expect(written.pairs.every((pair) => pair.roundTrips > 50)).toBe(true);
  });

  it("fails a registry whose versions are not the CRD's, or that lacks the kind", async () => {
    const onlyV1 = defineKind({
      group: "example.com",
      kind: "Gadget",
      versions: { v1: z.looseObject({}) },
      converters: {},
    });
    expect((await checkAgainstCrd([onlyV1], gadgetCrd!)).failure).toBe(
      "gadgets.example.com: the CRD's versions (v2, v1) differ from the registry's for Gadget.example.com (v1): the registry lacks v2",
    );
    expect((await checkAgainstCrd([], gadgetCrd!)).failure).toBe(
      "gadgets.example.com: Gadget.example.com is not in the registry (it serves no kinds)",
    );
  });

  it("assertMatchesCrd throws the report's words, from the CRD's YAML", async () => {
    const yaml =
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: { name: gadgets.example.com }\nspec: { group: example.com, names: { plural: gadgets, kind: Gadget }, versions: [{ name: v1, served: true, storage: true }] }\n";
    await expect(assertMatchesCrd(gadget, yaml)).rejects.toThrow(
      "gadgets.example.com: the CRD's versions (v1) differ from the registry's for Gadget.example.com (v2, v1): the CRD lacks v2",
    );
    await expect(assertMatchesCrd([gadget], gadgetCrd!, { runs: 20 })).resolves.toBeUndefined();
  });
});
