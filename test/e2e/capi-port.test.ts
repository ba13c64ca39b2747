import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { portProject } from "./port-project";

/**
 * A CRD author's port of a real two-version CRD, Cluster API's MachineHealthCheck
 * (test/fixtures/capi-machinehealthcheck), from the packed tarball: `crdshift init` from the CRD,
 * converters written with mapping(), the golden cases, then the project's `npm test` and
 * `npm run check` green. Then each natural slip, applied to the port, must turn both red naming
 * the field: a green check means the conversion is right. One npm install, reused by editing
 * files.
 */
const port = portProject({
  fixture: "capi-machinehealthcheck",
  crd: "machinehealthchecks.yaml",
  name: "mhc",
  kindFile: "src/kinds/machinehealthchecks.cluster.x-k8s.io.ts",
  prepare: (project, fixture) => cpSync(join(fixture, "golden"), join(project, "golden"), { recursive: true }),
});
const { npmTest, withConverters } = port;
const check = () => port.sh("npm", ["run", "check", "--silent", "--", "--runs", "60"]);

describe("porting Cluster API's MachineHealthCheck with crdshift init", () => {
  it("init vendors the tarball and lists the CRDs for crdshift check", () => {
    const pkg = JSON.parse(readFileSync(join(port.project(), "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.dependencies.crdshift).toMatch(/^file:vendor\/crdshift-[0-9.]+\.tgz$/);
    expect(pkg.scripts.test).toBe("tsc --noEmit && vitest run");
    expect(readFileSync(join(port.project(), "crdshift.config.ts"), "utf8")).toContain(
      'export const crds = ["crds/machinehealthchecks.yaml"];',
    );
  });

  it("the port passes npm test and npm run check, golden cases included", async () => {
    const test = await npmTest();
    expect(test.code, test.stdout + test.stderr).toBe(0);
    const checked = await check();
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toContain("ok: 2 golden case(s), 4 conversion(s) as recorded in golden/");
  });

  // Slip 1 (an enum table forgotten in both directions) has no place in this port: no enum differs
  // between MachineHealthCheck's two versions upstream. mapping() refuses it at load where the
  // versions' enums differ (test/registry/mapping.test.ts).

  it("slip 2: a moved field left to the copy, which pruning drops", () =>
    withConverters(
      (source) => source.replace('      "spec.unhealthyRange": "spec.remediation.triggerIf.unhealthyInRange",\n', ""),
      async () => {
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toContain("spec.unhealthyRange");
        const checked = await check();
        expect(checked.code).toBe(1);
        expect(checked.stderr).toContain("spec.unhealthyRange");
      },
    ));

  it("slip 3: a string assigned to a number is a type error, and npm test stops there", () =>
    withConverters(
      (source) =>
        source.replace(
          "    v1beta1: { v1beta2: beta.up },",
          "    v1beta1: {\n      v1beta2: (object) => {\n        const replicas: number = object.spec?.clusterName;\n        return { ...beta.up(object), status: { expectedMachines: replicas } };\n      },\n    },",
        ),
      async () => {
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toMatch(
          /error TS2322: Type 'string \| undefined' is not assignable to type 'number'/,
        );
        expect(test.stdout + test.stderr).not.toMatch(/Test Files/);
      },
    ));

  it("slip 4: a converter that throws on a valid enum value", () =>
    withConverters(
      (source) =>
        source.replace(
          "    v1beta2: { v1beta1: beta.down },",
          `    v1beta2: {
      v1beta1: (object) => {
        for (const condition of object.spec?.checks?.unhealthyMachineConditions ?? [])
          if (condition.status !== "True" && condition.status !== "False") throw new Error(\`status \${condition.status}?\`);
        return beta.down(object);
      },
    },`,
        ),
      async () => {
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toContain("status Unknown?");
        const checked = await check();
        expect(checked.code).toBe(1);
        // The golden case's Unknown, or a generated object's: an item without status (a partial
        // object, as server-side apply sends) trips the same throw.
        expect(checked.stderr).toMatch(/status (Unknown|undefined)\?/);
      },
    ));

  it("slip 5: a version key misspelt in the converters: tsc names it, check refuses to load in one line (exit 2)", () =>
    withConverters(
      (source) => source.replace("    v1beta2: { v1beta1: beta.down },", "    v1beta2: { v1beat1: beta.down },"),
      async () => {
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toContain("v1beat1");
        const checked = await check();
        expect(checked.code).toBe(2);
        expect(checked.stderr.trim().split("\n")).toHaveLength(1);
        expect(checked.stderr).toContain("v1beat1");
      },
    ));

  it("slip 6: a value of the wrong type forced past the compiler fails, naming the field, expected and received", () =>
    withConverters(
      (source) =>
        source.replace(
          "    v1beta1: { v1beta2: beta.up },",
          `    v1beta1: {
      v1beta2: (object) => {
        const out = beta.up(object);
        return out.spec?.remediation?.triggerIf ? { ...out, spec: { ...out.spec, remediation: { ...out.spec.remediation, triggerIf: { unhealthyInRange: [1, 3] } } } } as never : out;
      },
    },`,
        ),
      async () => {
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toMatch(/spec\.remediation\.triggerIf\.unhealthyInRange/);
        const checked = await check();
        expect(checked.code).toBe(1);
        expect(checked.stderr).toMatch(/spec\.remediation\.triggerIf\.unhealthyInRange.*expected.*string.*received/is);
      },
    ));
});
