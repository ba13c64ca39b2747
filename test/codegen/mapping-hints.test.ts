import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kindFiles } from "../../src/codegen/kind-files";
import { readCrds } from "../../src/kube/crd/crd-document";
import { root, scratchDir } from "./generated";

const scratch = scratchDir("mapping-hints");
afterAll(() => scratch.remove());

const version = (name: string, storage: boolean, spec: Record<string, unknown>) => ({
  name,
  served: true,
  storage,
  schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: spec } } } },
});
const crd = readCrds(
  JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "probes.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { kind: "Probe", plural: "probes", singular: "probe", listKind: "ProbeList" },
      versions: [
        version("v1alpha1", false, {
          maxUnhealty: { type: "string" },
          target: { type: "string", description: "The host to probe." },
          mode: { type: "string", enum: ["Fast", "Slow"] },
          count: { type: "integer" },
          cohort: { type: "string" },
          replicas: { type: "integer" },
          remediationTemplate: { type: "object", properties: { name: { type: "string" } } },
          port: { type: "integer" },
        }),
        version("v1", true, {
          policy: { type: "object", properties: { maxUnhealthy: { type: "string" } } },
          endpoint: { type: "string", description: "The host to probe." },
          mode: { type: "string", enum: ["fast", "slow"] },
          total: { type: "boolean" },
          cohortName: { type: "string" },
          replicaCount: { type: "integer" },
          remediation: {
            type: "object",
            properties: { templateRef: { type: "object", properties: { name: { type: "string" } } } },
          },
          portName: { type: "string" },
        }),
      ],
    },
  }),
  "probes.yaml",
)[0]!;

describe("init's mapping suggestions", () => {
  const files = kindFiles(crd, { crdFile: "crds/probes.yaml", crdshiftModule: join(root, "src/index.ts") });

  it("suggest a rename for a similar name or the same description and type, an enum table for values that differ in case", () => {
    expect(files.kind).toContain("// TODO(crdshift): v1alpha1 <-> v1 look like this mapping");
    expect(files.kind).toContain('//       "spec.maxUnhealty": "spec.policy.maxUnhealthy",');
    expect(files.kind).toContain('//       "spec.target": "spec.endpoint",');
    expect(files.kind).toContain('//       "spec.mode": { Fast: "fast", Slow: "slow" },');
    // One name the other with a word more, of the same type; an object not with its new parent.
    expect(files.kind).toContain('//       "spec.cohort": "spec.cohortName",');
    expect(files.kind).toContain('//       "spec.replicas": "spec.replicaCount",');
    expect(files.kind).not.toMatch(/"spec\.remediationTemplate": "spec\.remediation"/);
    // Different types are not paired.
    expect(files.kind).not.toContain('"spec.count"');
    expect(files.kind).not.toContain('"spec.port"');
    // Wrapped where the lines fall: read as one text.
    expect(files.kind.replace(/\n\s*\/\/ /g, " ")).toContain(
      "A mapping() for part of it is suggested above defineKind.",
    );
  });

  it("compile and load once uncommented: the paths are the schemas' own", async () => {
    writeFileSync(join(scratch.dir, files.schemasFile), files.schemas);
    const uncommented = files.kind
      .replace(/^\/\/ (const | {2}|\);)/gm, "$1")
      .replace("export const probe", "export { v1alpha1ToV1 };\nexport const probe");
    writeFileSync(join(scratch.dir, files.kindFile), uncommented);
    const module = (await import(join(scratch.dir, files.kindFile))) as {
      v1alpha1ToV1: { up: (object: unknown) => unknown };
    };
    expect(
      module.v1alpha1ToV1.up({
        spec: { maxUnhealty: "2", target: "h", mode: "Fast", count: 1, cohort: "c", replicas: 2 },
      }),
    ).toEqual({
      spec: { policy: { maxUnhealthy: "2" }, endpoint: "h", mode: "fast", count: 1, cohortName: "c", replicaCount: 2 },
    });
  });
});
