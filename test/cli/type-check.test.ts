import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";
import { scratchDir } from "../codegen/generated";

// Inside the repository, so that the project's TypeScript resolves as in a real project.
const scratch = scratchDir("type-check");
afterAll(() => scratch.remove());
let count = 0;

const KINDS = "../../../fixtures/pump-kinds.ts";
/** tsc reads only `checked.ts`: a project of one file, checked in seconds. */
const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", noEmit: true, types: [] },
  files: ["checked.ts"],
});

function project(checked: string, tsconfig: string | null = TSCONFIG): string {
  const dir = join(scratch.dir, `p${count++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "crdshift.config.ts"), `export { registry } from "${KINDS}";\n`);
  writeFileSync(join(dir, "checked.ts"), checked);
  if (tsconfig !== null) writeFileSync(join(dir, "tsconfig.json"), tsconfig);
  return dir;
}

async function check(cwd: string, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(["check", "--runs", "5", ...args], {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    stdin: () => "",
    cwd,
  });
  return { code, stdout, stderr };
}

describe("crdshift check --typecheck", { timeout: 120_000 }, () => {
  it("fails on a type error by name, before any converter runs", async () => {
    const dir = project('export const replicas: number = "3";\n');
    const { code, stdout, stderr } = await check(dir, "--typecheck");
    expect(stderr).toMatch(
      /^\ncrdshift check: FAILED: tsc --noEmit -p tsconfig\.json, so no converter was run\n {2}checked\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'\.\n$/,
    );
    expect(stdout).toBe("");
    expect(code).toBe(1);
  });

  it("goes on to the checks once the project type-checks, and says so", async () => {
    const { code, stdout } = await check(project("export const replicas: number = 3;\n"), "--typecheck");
    expect(stdout).toMatch(/^type-checked: tsc --noEmit -p tsconfig\.json\n/);
    expect(stdout).toMatch(/\nok: /);
    expect(code).toBe(0);
  });

  it("without the flag, says plainly that nothing was type-checked, and runs the converters", async () => {
    const { code, stdout } = await check(project('export const replicas: number = "3";\n'));
    expect(stdout).toMatch(/^not type-checked: add --typecheck/);
    expect(stdout).toMatch(/\nok: /);
    expect(code).toBe(0);
  });

  it("a project without a tsconfig.json: exit 2, saying how to make one", async () => {
    const { code, stderr } = await check(project("", null), "--typecheck");
    expect(stderr).toMatch(/^crdshift: --typecheck: no tsconfig\.json in .* \(npx tsc --init writes one\)\n$/);
    expect(code).toBe(2);
  });
});
