import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";
import { scratchDir } from "../codegen/generated";

// Inside the repository, so that a project's `zod/mini` resolves as in a real project.
const scratch = scratchDir("check-project");
afterAll(() => scratch.remove());
let count = 0;

/** A project folder with these files; the repository's sources are at ../../../src. */
function project(files: Record<string, string>): string {
  const dir = join(scratch.dir, `p${count++}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function run(args: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { out: (t) => (stdout += t), err: (t) => (stderr += t), stdin: () => "", cwd });
  return { code, stdout, stderr };
}

const PUMPS = "../../../fixtures/crds/pumps.example.com.yaml";
const KINDS = "../../../fixtures/pump-kinds.ts";

describe("crdshift check and the project's CRDs", () => {
  it("without CRDs, says what it cannot see instead of calling the converters right", async () => {
    const dir = project({ "crdshift.config.ts": `export { registry } from "${KINDS}";\n` });
    const { code, stdout } = await run(["check", "--runs", "20"], dir);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "Not checked, without the CRDs: the apiserver's pruning, and the CRD's enums, formats, patterns and bounds on converted objects.",
    );
    expect(stdout).toContain('export const crds = ["crds/my-crd.yaml"]');
    expect(stdout).not.toContain("round trips keep every field\n");
  });

  it("checks the CRDs crdshift.config.ts lists, relative to it: the forgotten enum table fails", async () => {
    const dir = project({
      "crdshift.config.ts": `export { registry } from "${KINDS}";\nexport const crds = ["${PUMPS}"];\n`,
    });
    const { code, stdout, stderr } = await run(["check", "--seed", "1"], dir);
    expect(stdout).toContain(`Pump.example.com against ${PUMPS}\n`);
    expect(stderr).toMatch(
      /\ncrdshift check: FAILED\nPump\.example\.com .*spec\.restartPolicy: "\w+" is not one of the enum values/,
    );
    expect(code).toBe(1);
  });

  it("passes the port with its table", async () => {
    const dir = project({
      "crdshift.config.ts": `export { mappedRegistry as registry } from "${KINDS}";\nexport const crds = ["${PUMPS}"];\n`,
    });
    const { code, stdout } = await run(["check", "--runs", "30"], dir);
    expect(stdout).toMatch(/each result valid in v1[;\n]/);
    expect(stdout).toContain(`\nok: 1 kind(s) against ${PUMPS}: every result valid in its target version`);
    expect(code).toBe(0);
  });

  it("names crds that is not a list of file names", async () => {
    const dir = project({
      "crdshift.config.ts": `export { registry } from "${KINDS}";\nexport const crds = "x.yaml";\n`,
    });
    expect(await run(["check"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^crdshift check: crdshift\.config\.ts exports crds that is not a list of file names — /,
      ),
    });
  });
});

/** A registry module defining one kind with these converters (text), for load errors. */
function registryWith(converters: string, versions = "{ v1: schema, v1beta1: schema }"): string {
  return (
    `import * as z from "zod/mini";\nimport { createRegistry, defineKind } from "../../../../src/conversion/index.ts";\n` +
    `const schema = z.looseObject({});\n` +
    `export const registry = createRegistry([defineKind({ group: "example.com", kind: "Pump", versions: ${versions}, converters: ${converters} })]);\n`
  );
}

describe("a registry that does not load: one line with the fix, exit 2, no stack trace", () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      "a typo in a converters key",
      { "crdshift.config.ts": registryWith("{ v1: { v1beta1: (o) => o }, v1beta: { v1: (o) => o } }") },
      /^crdshift check: crdshift\.config\.ts: Pump\.example\.com: converters from "v1beta", which is not one of its versions \(v1, v1beta1\) — did you mean "v1beta1"\? use one of v1, v1beta1, or add "v1beta" to versions\n$/,
    ],
    [
      "a missing direction",
      { "crdshift.config.ts": registryWith("{ v1: { v1beta1: (o) => o } }") },
      /^crdshift check: crdshift\.config\.ts: Pump\.example\.com: no chain of converters for v1beta1 -> v1; every version must reach every other one — add converters\.v1beta1\.v1 \(or a chain through another version\)\n$/,
    ],
    [
      "a converter naming an unknown version",
      { "crdshift.config.ts": registryWith("{ v1: { v1beta1: (o) => o, v2: (o) => o }, v1beta1: { v1: (o) => o } }") },
      /^crdshift check: crdshift\.config\.ts: Pump\.example\.com: converter v1 -> v2 names "v2", which is not one of its versions \(v1, v1beta1\) — did you mean "v1"\? use one of v1, v1beta1, or add "v2" to versions\n$/,
    ],
    [
      "a definition error that names no fix of its own",
      { "crdshift.config.ts": registryWith("{ v1: { v1: (o) => o } }") },
      /^crdshift check: crdshift\.config\.ts: Pump\.example\.com: converter v1 -> v1 converts a version to itself — fix the definition it names\n$/,
    ],
    [
      "a module that throws at import",
      {
        "crdshift.config.ts": `const table = undefined as unknown as Record<string, string>;\nexport const registry = table.x;\n`,
      },
      /^crdshift check: crdshift\.config\.ts threw while loading: TypeError: Cannot read properties of undefined \(reading 'x'\) — fix the module so that it loads \(.*crdshift\.config\.ts:\d+:\d+\)?\)\n$/,
    ],
    [
      "no registry export",
      { "crdshift.config.ts": "export const kinds = [];\n" },
      /^crdshift check: crdshift\.config\.ts exports no registry — export const registry = createRegistry\(\[\.\.\.\]\)/,
    ],
    [
      "a module that does not compile",
      { "crdshift.config.ts": "export const registry = ;\n" },
      /^crdshift check: cannot load crdshift\.config\.ts: .*crdshift\.config\.ts:1: Unexpected ";" — fix it so that it compiles\n$/,
    ],
  ];
  for (const [what, files, message] of cases) {
    it(what, async () => {
      const { code, stdout, stderr } = await run(["check", "--runs", "5"], project(files));
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stdout).toBe("");
      expect(code).toBe(2);
    });
  }
});
