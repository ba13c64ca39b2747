import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kindFiles } from "../../src/codegen/kind-files";
import { readCrds } from "../../src/kube/crd/crd-document";
import { createRegistry, type KindDefinition } from "../../src/conversion";
import { assertMatchesCrd } from "../../src/check/crd-check";
import { assertGolden } from "../../src/check/golden";
import { assertRoundTrips } from "../../src/check/round-trip";
import { root, scratchDir } from "../codegen/generated";

/**
 * The Cluster API MachineHealthCheck port (test/fixtures/capi-machinehealthcheck) in process:
 * the generated schemas, the converters an author writes with mapping(), against the CRD and
 * the golden cases. test/e2e/capi-port.test.ts runs the same as a user's project, with slips.
 */
const FIXTURE = join(root, "test/fixtures/capi-machinehealthcheck");
const crdText = readFileSync(join(FIXTURE, "machinehealthchecks.yaml"), "utf8");
const scratch = scratchDir("capi-port");
afterAll(() => scratch.remove());

async function load(converters: string): Promise<KindDefinition> {
  const [crd] = readCrds(crdText, "machinehealthchecks.yaml");
  const files = kindFiles(crd!, { crdFile: "crds/machinehealthchecks.yaml" });
  writeFileSync(join(scratch.dir, files.schemasFile), files.schemas);
  const file = join(scratch.dir, `${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, converters.replace('from "crdshift"', `from ${JSON.stringify(join(root, "src/index.ts"))}`));
  return ((await import(file)) as { machineHealthCheck: KindDefinition }).machineHealthCheck;
}

describe("the Cluster API MachineHealthCheck port", () => {
  it("converts as upstream does: round trips, the CRD's objects through pruning, the golden cases", async () => {
    const kind = await load(readFileSync(join(FIXTURE, "converters.ts.txt"), "utf8"));
    await assertRoundTrips(kind, { runs: 100 });
    await assertMatchesCrd([kind], crdText, { runs: 100 });
    await assertGolden(createRegistry([kind]), join(FIXTURE, "golden"));
  }, 120_000);

  it("init suggests most of the mapping from the two schemas alone", () => {
    const [crd] = readCrds(crdText, "machinehealthchecks.yaml");
    const { kind } = kindFiles(crd!, { crdFile: "crds/machinehealthchecks.yaml" });
    expect(kind).toContain('//       "spec.unhealthyMachineConditions": "spec.checks.unhealthyMachineConditions",');
    expect(kind).toContain('//       "spec.unhealthyRange": "spec.remediation.triggerIf.unhealthyInRange",');
    expect(kind).toContain('//       "spec.remediationTemplate.name": "spec.remediation.templateRef.name",');
    // Not remediationTemplate -> remediation, its new parent.
    expect(kind).not.toContain('"spec.remediationTemplate": "spec.remediation"');
  });

  it("a rename left out fails the golden cases, naming the field", async () => {
    const slip = readFileSync(join(FIXTURE, "converters.ts.txt"), "utf8").replace(
      '      "spec.unhealthyRange": "spec.remediation.triggerIf.unhealthyInRange",\n',
      "",
    );
    const kind = await load(slip);
    await expect(assertGolden(createRegistry([kind]), join(FIXTURE, "golden"))).rejects.toThrow(
      /golden machinehealthchecks\/full: v1beta1 -> v1beta2: .*\bspec\.unhealthyRange: expected missing, received "\[1-3\]"/,
    );
    // The CRD check finds it too: the apiserver prunes the copied field from the v1beta2 object.
    await expect(assertMatchesCrd([kind], crdText, { runs: 100 })).rejects.toThrow(/spec\.unhealthyRange/);
  });
});
