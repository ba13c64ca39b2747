import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as core from "zod/v4/core";
import { kindFiles } from "../../src/codegen/kind-files";
import type { Crd } from "../../src/kube/crd/crd-document";
import { crdObjectArbitrary } from "../../src/check/crd-arbitrary";
import { deepCrd } from "./deep-crd";
import { type LoadedKind, loadGenerated, readCrdFile, scratchDir } from "./generated";

const FILES = [
  "test/fixtures/crds/widgets.example.com.yaml",
  "test/fixtures/crds/gadgets.example.com.yaml",
  "examples/crds/crontabs.example.com.yaml",
  "examples/crds/crontabs.stable.example.com.yaml",
];
const crds: Crd[] = [...FILES.flatMap(readCrdFile), deepCrd(12)];
const scratch = scratchDir("schema-source");
const loaded = new Map<string, LoadedKind>();

beforeAll(async () => {
  for (const crd of crds) loaded.set(crd.name, await loadGenerated(crd, scratch.dir));
});
afterAll(() => scratch.remove());

const issue = (schema: core.$ZodType, value: unknown) => {
  const result = core.safeParse(schema, value);
  return result.success ? undefined : `${result.error.issues[0]!.path.join(".")}: ${result.error.issues[0]!.message}`;
};

describe("generated schemas", () => {
  it("accept every object their CRD accepts, whole or partial, in every version", () => {
    for (const crd of crds) {
      for (const version of crd.versions) {
        const schema = loaded.get(crd.name)!.versions[version.name]!;
        const objects = fc.tuple(fc.boolean(), fc.boolean()).chain(([partial, metadata]) =>
          crdObjectArbitrary(version.schema, { partial }).map((body) => ({
            ...body,
            apiVersion: `${crd.group}/${version.name}`,
            kind: crd.kind,
            ...(metadata ? { metadata: { name: "a" } } : {}),
          })),
        );
        fc.assert(
          fc.property(objects, (object) => {
            expect(issue(schema, object), `${crd.name} ${version.name}`).toBeUndefined();
          }),
          { numRuns: 60 },
        );
      }
    }
  });

  it("refuse a field of the wrong JSON type, naming it", () => {
    const v1 = loaded.get("widgets.example.com")!.versions.v1!;
    expect(issue(v1, { spec: { ports: "80" } })).toMatch(/^spec\.ports: /);
    expect(issue(v1, { spec: { size: "1" } })).toMatch(/^spec\.size: /);
    expect(issue(v1, { spec: { limits: { cpu: { value: true } } } })).toMatch(/^spec\.limits\.cpu\.value: /);
    expect(issue(v1, { spec: { matrix: [[1, null], ["x"]] } })).toMatch(/^spec\.matrix\.1\.0: /);
    expect(issue(v1, { spec: { name: null } })).toMatch(/^spec\.name: /);
    expect(issue(v1, { status: [] })).toMatch(/^status: /);
  });

  it("are looser than the CRD where the apiserver may hold more: no required fields, enums, bounds or patterns; unknown fields kept; bigint integers", () => {
    const v1 = loaded.get("widgets.example.com")!.versions.v1!;
    const object = {
      spec: {
        mode: "Medium",
        size: 2n ** 60n,
        bytes: 2n ** 62n,
        ratio: 9007199254740993n,
        schedule: "not a time",
        name: "",
        maxUnavailable: 10n,
        note: null,
        owner: null,
        config: null,
        tags: ["a", "a"],
        unknown: { kept: true },
      },
      status: { observedGeneration: -(2n ** 63n), conditions: [{ message: "no type, no status" }] },
      extra: 1,
    };
    expect(issue(v1, object)).toBeUndefined();
    for (const value of [3, "3", 2n ** 64n]) expect(issue(v1, { spec: { maxUnavailable: value } })).toBeUndefined();
    const parsed = core.parse(v1, object) as typeof object;
    // Nothing stripped, nothing defaulted (the CRD's default for mode is Small).
    expect(parsed.spec.unknown).toEqual({ kept: true });
    expect(parsed.extra).toBe(1);
    expect(core.parse(v1, { spec: {} })).toEqual({ spec: {} });
  });

  it("leave apiVersion, kind and metadata to crdshift (null metadata from server-side apply passes)", () => {
    const v1 = loaded.get("widgets.example.com")!.versions.v1!;
    expect(issue(v1, { apiVersion: "example.com/v1", kind: "Widget", metadata: null })).toBeUndefined();
  });

  it("read like the CRD: shared shapes named once, a version equal to another is that one, deep ones split", () => {
    const widgets = loaded.get("widgets.example.com")!.files.schemas;
    expect(widgets).toContain("export const v1beta1 = v1;");
    expect(widgets).toContain('["__proto__"]: z.optional(z.string()),');
    expect(widgets).toContain('"dotted.key": z.optional(z.string()),');
    expect(widgets).toMatch(
      /\/\/ required; one of "Small", "Large"; default "Small"\n\s+mode: z\.optional\(z\.string\(\)\),/,
    );
    expect(widgets).toMatch(
      /\/\/ CEL self\.size <= 100 \|\| self\.mode == 'Large' \("large sizes need mode Large"\)\n\s+spec: /,
    );
    const deep = loaded.get("deeps.example.com")!.files.schemas;
    // No object is written more than four levels deep: the rest are named constants.
    expect(Math.max(...deep.split("\n").map((line) => /^ */.exec(line)![0].length))).toBeLessThanOrEqual(8);
    const shared = kindFiles(readCrdFile("test/fixtures/crds/widgets.example.com.yaml")[0]!, { crdFile: "x" }).schemas;
    expect(shared.match(/^const /gm) ?? []).toEqual(["const ", "const ", "const "]); // the three helpers
  });
});
