import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineEnv, run } from "./run";

/**
 * `npm run deploy:aws` hands the assembly `npm run synth:aws` writes to the CDK CLI
 * (`cdk deploy --app cdk.out`), and the CLI refuses assemblies of a newer schema than it knows,
 * which moves with aws-cdk-lib. Here the pinned CLI runs this repository's CDK app and reads
 * what it wrote, offline and without credentials.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const CDK = join(root, "node_modules/aws-cdk/bin/cdk");
const APP = join(root, "build/cdk-cli-test/app.mjs");
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  if (!existsSync(join(root, "build/lambda/index.mjs")))
    throw new Error("build/lambda/index.mjs is missing: run `npm run build:lambda` (npm test does)");
  dir = mkdtempSync(join(tmpdir(), "crdshift-cdk-"));
  mkdirSync(join(dir, "home"));
  env = offlineEnv({ HOME: join(dir, "home") });
  // As synth:aws bundles it, beside its bundle (the app imports aws-cdk-lib from node_modules).
  await build({
    absWorkingDir: root,
    entryPoints: ["examples/entry/aws-cdk.ts"],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    packages: "external",
    outfile: APP,
    logLevel: "warning",
  });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the CDK CLI (aws-cdk) and this repository's CDK app", () => {
  it("cdk synth runs the app and reads the assembly aws-cdk-lib wrote", async () => {
    const out = join(dir, "cdk.out");
    const result = await run(
      process.execPath,
      [CDK, "synth", "--app", `node ${APP}`, "--output", out, "--quiet", "--no-notices"],
      { cwd: root, env },
    );
    expect(result.stderr).not.toMatch(/schema version mismatch/i);
    const template = JSON.parse(readFileSync(join(out, "Crdshift.template.json"), "utf8"));
    expect(Object.keys(template.Outputs)).toEqual(["WebhookUrlPrefix"]);
  });

  it("cdk ls lists the stack from that assembly, as cdk deploy --app cdk.out reads it", async () => {
    const { stdout } = await run(process.execPath, [CDK, "ls", "--app", join(dir, "cdk.out"), "--no-notices"], {
      cwd: root,
      env,
    });
    expect(stdout.trim()).toBe("Crdshift");
  });
});
