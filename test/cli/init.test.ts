import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { main } from "../../src/cli/main";
import { ownPackage } from "../../src/cli/own-package";
import { root, scratchDir } from "../codegen/generated";

const WIDGETS = join(root, "test/fixtures/crds/widgets.example.com.yaml");
const GADGETS = join(root, "test/fixtures/crds/gadgets.example.com.yaml");
const URL_WITH_TOKEN = "https://hook.example.workers.dev/convert/init-test-token-0123456789";
const scratch = scratchDir("cli-init");
afterAll(() => scratch.remove());

async function run(args: string[], cwd = root) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    stdin: () => "",
    cwd,
  } as Parameters<typeof main>[1]);
  return { code, stdout, stderr };
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("crdshift init", () => {
  it("writes a project from the CRDs: kinds with generated schemas, registry, tests, entries, deploy configuration", async () => {
    const dir = join(scratch.dir, "hook");
    const { code, stdout } = await run(["init", dir, "--crd", WIDGETS, "--crd", GADGETS]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "src/kinds/widgets.example.com.ts: Widget.example.com (v1, v1beta1), ready: its versions declare the same fields",
    );
    expect(stdout).toContain(
      "src/kinds/gadgets.example.com.ts: Gadget.example.com (v2, v1), converters to write: v2 -> v1, v1 -> v2",
    );
    for (const file of [
      "package.json",
      "tsconfig.json",
      ".gitignore",
      "README.md",
      "crdshift.config.ts",
      "wrangler.toml",
      "src/registry.ts",
      "src/server.ts",
      "src/worker.ts",
      "src/lambda.ts",
      "src/cdk.ts",
      "test/kinds.test.ts",
      "crds/widgets.example.com.yaml",
      "crds/gadgets.example.com.yaml",
      "src/kinds/widgets.example.com.schemas.ts",
      "src/kinds/gadgets.example.com.ts",
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const pkg = JSON.parse(read(dir, "package.json")) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.scripts)).toEqual(
      expect.arrayContaining([
        "start",
        "test",
        "check",
        "build:worker",
        "dev:worker",
        "synth:aws",
        "deploy:cloudflare",
        "deploy:aws",
        "generate",
      ]),
    );
    expect(pkg.scripts.check).toBe(
      "crdshift check --crd crds/widgets.example.com.yaml --crd crds/gadgets.example.com.yaml",
    );
    expect(pkg.dependencies.crdshift).toBe(`^${ownPackage().version}`);
    expect(pkg.scripts.test).toBe("tsc --noEmit && vitest run");
    // The heap crdshift's own npm start gives Node, sized for the default in-flight cap.
    const heapFlag = (
      JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as typeof pkg
    ).scripts.start!.match(/--max-old-space-size=\d+/)![0];
    expect(pkg.scripts.start).toBe(`npm run build:server --silent && node ${heapFlag} dist/server.js`);
    expect(read(dir, "crdshift.config.ts")).toContain(
      'export const crds = ["crds/widgets.example.com.yaml", "crds/gadgets.example.com.yaml"];',
    );
    expect(read(dir, "src/registry.ts")).toContain("createRegistry([widget, gadget])");
    expect(read(dir, "src/kinds/widgets.example.com.ts")).not.toContain("TODO");
    const gadget = read(dir, "src/kinds/gadgets.example.com.ts");
    expect(gadget).toMatch(/TODO\(crdshift\): v2 -> v1\. Only v2 has spec\.host, spec\.port, status:/);
    expect(gadget.replace(/\n\s*\/\/ /g, " ")).toContain(
      "spec.size is an integer in v2 and a string in v1: convert it.",
    );
    expect(gadget).toContain("v1: ({ ...object }) => object as never,");
    // Without --url the CRDs are kept as they were.
    expect(read(dir, "crds/gadgets.example.com.yaml")).toBe(readFileSync(GADGETS, "utf8"));
  });

  it("sets the crdshift dependency, and writes the conversion stanza into the CRDs when the URL is known", async () => {
    const dir = join(scratch.dir, "with-url");
    writeFileSync(join(scratch.dir, "crdshift-0.1.0.tgz"), "a tarball");
    const { code, stderr } = await run([
      "init",
      dir,
      "--crd",
      WIDGETS,
      "--url",
      URL_WITH_TOKEN,
      "--crdshift",
      `file:${join(scratch.dir, "crdshift-0.1.0.tgz")}`,
    ]);
    expect(code).toBe(0);
    // The tarball travels with the project, named relative to it: a teammate and CI install it too.
    expect(JSON.parse(read(dir, "package.json")).dependencies.crdshift).toBe("file:vendor/crdshift-0.1.0.tgz");
    expect(read(dir, "vendor/crdshift-0.1.0.tgz")).toBe("a tarball");
    const crd = parse(read(dir, "crds/widgets.example.com.yaml")) as { spec: { conversion: unknown } };
    expect(crd.spec.conversion).toEqual({
      strategy: "Webhook",
      webhook: { conversionReviewVersions: ["v1", "v1beta1"], clientConfig: { url: URL_WITH_TOKEN } },
    });
    expect(stderr).toContain(
      "widgets.example.com: conversion by webhook at https://hook.example.workers.dev/convert/<token>",
    );
    expect(read(dir, "README.md")).toContain("already point at https://hook.example.workers.dev/convert/<token>");
  });

  it("refuses a folder that is not empty unless --force, a bad URL, and a missing or unreadable CRD (exit 2)", async () => {
    const dir = join(scratch.dir, "busy");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "notes.txt"), "mine");
    expect(await run(["init", dir, "--crd", WIDGETS])).toMatchObject({
      code: 2,
      stderr: `crdshift: ${dir} is not empty; choose a new folder, or add --force to write into it (files crdshift writes are replaced)\n`,
    });
    expect((await run(["init", dir, "--crd", WIDGETS, "--force"])).code).toBe(0);
    expect(read(dir, "notes.txt")).toBe("mine");
    expect(
      await run(["init", join(scratch.dir, "x"), "--crd", WIDGETS, "--url", "http://insecure/convert"]),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining("--url: 'https' is the only allowed URL scheme") });
    expect(await run(["init", join(scratch.dir, "y")])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--crd FILE is required"),
    });
    expect(await run(["init", join(scratch.dir, "z"), "--crd", join(root, "package.json")])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("package.json: no CustomResourceDefinition in it"),
    });
    expect(existsSync(join(scratch.dir, "z"))).toBe(false);
  });
});

describe("crdshift generate", () => {
  it("writes the schemas again from a changed CRD and leaves the converters alone, naming a new version", async () => {
    const dir = join(scratch.dir, "regen");
    expect((await run(["init", dir, "--crd", GADGETS])).code).toBe(0);
    const kindFile = join(dir, "src/kinds/gadgets.example.com.ts");
    const mine = `${read(dir, "src/kinds/gadgets.example.com.ts")}// my converters\n`;
    writeFileSync(kindFile, mine);
    // The CRD gains a field in v2 and a version v3.
    const changed = readFileSync(GADGETS, "utf8")
      .replace(
        "image: { type: string }\n            status:",
        "image: { type: string }\n                replicas: { type: integer }\n            status:",
      )
      .replace(
        "  versions:\n",
        "  versions:\n    - name: v3\n      served: true\n      storage: false\n      schema: { openAPIV3Schema: { type: object, properties: { spec: { type: object } } } }\n",
      );
    writeFileSync(join(dir, "crds/gadgets.example.com.yaml"), changed);
    const { code, stdout } = await run(["generate", "--crd", "crds/gadgets.example.com.yaml"], dir);
    expect(code).toBe(0);
    expect(stdout).toBe(
      "wrote src/kinds/gadgets.example.com.schemas.ts: Gadget.example.com (v3, v2, v1)\n" +
        "  v3 is new: write its converters in src/kinds/gadgets.example.com.ts (defineKind names the ones missing; npm run check proves them)\n",
    );
    const schemas = read(dir, "src/kinds/gadgets.example.com.schemas.ts");
    expect(schemas).toContain("replicas: z.optional(integer),");
    expect(schemas).toContain("export const versions = { v3, v2, v1 };");
    expect(read(dir, "src/kinds/gadgets.example.com.ts")).toBe(mine);
  });

  it("writes a kind file for a CRD that has none yet", async () => {
    const dir = join(scratch.dir, "new-kind");
    mkdirSync(dir);
    const { code, stdout } = await run(["generate", "--crd", WIDGETS, "--dir", "kinds"], dir);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'wrote kinds/widgets.example.com.ts, a new kind: add widget to your registry (import { widget } from "./kinds/widgets.example.com.js")',
    );
    expect(existsSync(join(dir, "kinds/widgets.example.com.schemas.ts"))).toBe(true);
  });
});

describe("crdshift check --crd", () => {
  it("exits 1 naming the fields to handle while the converters are the generated copies, 0 once they are written", async () => {
    const dir = join(scratch.dir, "check");
    mkdirSync(dir);
    expect((await run(["generate", "--crd", GADGETS, "--dir", "."], dir)).code).toBe(0);
    // The generated kind against this repository's sources.
    writeFileSync(
      join(dir, "gadgets.example.com.ts"),
      read(dir, "gadgets.example.com.ts").replace(
        'from "crdshift"',
        `from ${JSON.stringify(join(root, "src/index.ts"))}`,
      ),
    );
    writeFileSync(
      join(dir, "registry.ts"),
      `import { createRegistry } from ${JSON.stringify(join(root, "src/index.ts"))};\nimport { gadget } from "./gadgets.example.com.js";\nexport const registry = createRegistry([gadget]);\n`,
    );
    const todo = await run(["check", "--registry", join(dir, "registry.ts"), "--crd", GADGETS, "--runs", "50"]);
    expect(todo.code).toBe(1);
    expect(todo.stdout).toContain("Gadget.example.com against");
    // Findings most useful first: of the two pairs' (same rank), the one more objects showed, which
    // depends on the run's seed (none given).
    expect(todo.stderr).toMatch(
      /crdshift check: FAILED\nGadget\.example\.com (v2 -> v1 -> v2|v1 -> v2 -> v1)( \(a partial object\))?: /,
    );
    expect(todo.stderr).toContain("only v1 has spec.hostPort");

    const written = await run([
      "check",
      "--registry",
      join(root, "test/fixtures/gadget-registry.ts"),
      "--crd",
      GADGETS,
      "--runs",
      "50",
    ]);
    expect(written.stderr).toBe("");
    expect(written.code).toBe(0);
    expect(written.stdout).toContain("  v2 -> v1 -> v2  ");
    expect(written.stdout).toContain(`ok: 1 kind(s) against ${GADGETS}: every result valid in its target version`);
  });
});
