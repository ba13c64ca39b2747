import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect } from "vitest";
import { offlineEnv, run } from "./run";

const root = fileURLToPath(new URL("../..", import.meta.url));

export interface PortFixture {
  /** The folder under test/fixtures holding the CRD and `converters.ts.txt`. */
  fixture: string;
  /** The CRD file in it. */
  crd: string;
  /** The project's name (`crdshift init <name>`). */
  name: string;
  /** The kind file init writes, which the port's converters replace. */
  kindFile: string;
  /** What else the port adds before its npm install (golden cases). */
  prepare?: (project: string, fixture: string) => void;
}

/**
 * A CRD author's port of a real CRD, as the README has them start: the package packed with
 * `npm run tarball`, `crdshift init` from the CRD, the port's converters in place of init's, one
 * npm install; removed after the file. Slips are applied by editing the kind file.
 */
export function portProject(port: PortFixture) {
  const fixture = join(root, "test/fixtures", port.fixture);
  const converters = readFileSync(join(fixture, "converters.ts.txt"), "utf8");
  let dir = "";
  let project = "";
  const ok = (command: string, args: string[], cwd: string) => run(command, args, { cwd, env: offlineEnv() });
  const sh = (command: string, args: string[], cwd = project) =>
    run(command, args, { cwd, env: offlineEnv(), allowFailure: true });

  beforeAll(async () => {
    for (const file of ["dist/index.js", "dist/cli.js"])
      if (!existsSync(join(root, file))) throw new Error(`${file} is missing: run \`npm run build\` (npm test does)`);
    dir = mkdtempSync(join(tmpdir(), `crdshift-${port.name}-`));
    const pack = await ok("npm", ["run", "tarball", "--silent", "--", "--json", "--pack-destination", dir], root);
    const tarball = join(dir, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename);
    cpSync(join(fixture, port.crd), join(dir, port.crd));
    // As the README says, without a terminal: npx needs --yes.
    await ok(
      "npx",
      [
        "--yes",
        "--prefer-offline",
        "--package",
        tarball,
        "crdshift",
        "init",
        port.name,
        "--crd",
        port.crd,
        "--crdshift",
        `file:${tarball}`,
      ],
      dir,
    );
    project = join(dir, port.name);
    writeFileSync(join(project, port.kindFile), converters);
    port.prepare?.(project, fixture);
    await ok("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], project);
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  return {
    /** The project's folder, once beforeAll has run. */
    project: () => project,
    sh,
    npmTest: () => sh("npm", ["test", "--silent"]),
    /** The kind file with `edit` applied, for the length of `body`. */
    async withConverters(edit: (source: string) => string, body: () => Promise<void>): Promise<void> {
      const changed = edit(converters);
      expect(changed, "the slip applies").not.toBe(converters);
      writeFileSync(join(project, port.kindFile), changed);
      try {
        await body();
      } finally {
        writeFileSync(join(project, port.kindFile), converters);
      }
    },
  };
}
