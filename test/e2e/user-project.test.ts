import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";
import { functionUrlEvent, LambdaHost } from "../bundles/lambda";
import { listeningOn, offlineEnv, run } from "./run";

/**
 * What a CRD author does with crdshift, in a fresh project outside this repository: it depends on
 * the tarball `npm run tarball` makes (installed offline but for the npm registry, from npm's
 * cache where it can), defines a kind with the public API only (test/e2e/user-project/),
 * type-checks it under `tsc --init`'s settings, under `moduleResolution: bundler` and, every
 * declaration checked, under nodenext over every subpath, proves it with its own
 * vitest run, serves it on Node, in workerd and as a Lambda function URL handler, synthesizes
 * the CDK construct and reads the result with the CDK CLI, and runs `npx crdshift check`.
 * The tools a user adds with `npm install -D` (typescript, vitest, wrangler, the CDK) are this
 * repository's, linked into the project: the same versions, without a second download.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const TOKEN = "user-project-token-0123456789";
const TOOLS = ["typescript", "vitest", "wrangler", "aws-cdk", "aws-cdk-lib", "constructs", "@types/node"];
const BINS: Record<string, string> = {
  tsc: "typescript/bin/tsc",
  vitest: "vitest/vitest.mjs",
  wrangler: "wrangler/bin/wrangler.js",
  cdk: "aws-cdk/bin/cdk",
};

let dir: string;
let project: string;
let packed: string[];
const running: ChildProcess[] = [];
const inProject = (args: string[], env?: Record<string, string>) =>
  run("npm", args, { cwd: project, ...(env ? { env } : {}) });
const npx = (args: string[], env?: Record<string, string>) =>
  run("npx", ["--no-install", ...args], { cwd: project, ...(env ? { env } : {}) });

/** A ConversionReview for the project's kind, as the apiserver sends it. */
const review = (objects: unknown[]): SentReview => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "ConversionReview",
  request: {
    uid: "0b5e8e4e-2f6a-4c36-9d1e-6d0f2c1a7e11",
    desiredAPIVersion: "stable.example.com/v2",
    objects: objects as SentReview["request"]["objects"],
  },
});
const metadata = { name: "cr-instance-v1", namespace: "default", uid: "9a4d1c2e-0000-4000-8000-000000000001" };
const object = { apiVersion: "stable.example.com/v1", kind: "E2eTestCrd", metadata, hostPort: "localhost:8080" };
const sent = review([object]);
const converted = {
  apiVersion: "stable.example.com/v2",
  kind: "E2eTestCrd",
  metadata,
  host: "localhost",
  port: "8080",
};

beforeAll(async () => {
  for (const file of ["dist/index.js", "dist/cli.js", "dist/types/index.d.ts"]) {
    if (!existsSync(join(root, file))) throw new Error(`${file} is missing: run \`npm run build\` (npm test does)`);
  }
  dir = mkdtempSync(join(tmpdir(), "crdshift-user-"));
  project = join(dir, "my-crds");
  // As the README packs it: from a copy of the built package (npm test builds it before vitest
  // starts), with a package.json that has no scripts; nothing rebuilds dist/ under the other tests.
  const pack = await run("npm", ["run", "tarball", "--silent", "--", "--json", "--pack-destination", dir], {
    cwd: root,
  });
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = info!.files.map((f) => f.path);
  cpSync(fileURLToPath(new URL("user-project", import.meta.url)), project, { recursive: true });
  cpSync(join(dir, info!.filename), join(project, "crdshift.tgz"));
  await inProject(["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"]);
});

afterAll(() => {
  for (const child of running) child.kill("SIGTERM");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a CRD author's project using crdshift from its tarball", () => {
  it("gets a package of the built code: dist/, the command, the README, the license; no sources, tests, bench or infrastructure", () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "bin/crdshift.mjs",
        "dist/index.js",
        "dist/cli.js",
        "dist/types/index.d.ts",
      ]),
    );
    expect(
      packed.filter((path) => !/^(dist\/|bin\/crdshift\.mjs$|package\.json$|README\.md$|LICENSE$)/.test(path)),
    ).toEqual([]);
    // No install script for npm to warn every user about, nor the repository's other scripts.
    const manifest = JSON.parse(readFileSync(join(project, "node_modules/crdshift/package.json"), "utf8"));
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.bin).toEqual({ crdshift: "bin/crdshift.mjs" });
  });

  it("imports every subpath in plain node, with nothing but the package's dependencies and zod installed", async () => {
    const subpaths = ["crdshift", "crdshift/testing", "crdshift/node", "crdshift/workers", "crdshift/lambda"];
    const code = `for (const s of ${JSON.stringify(subpaths)}) console.log(s, Object.keys(await import(s)).sort().join(" "));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], { cwd: project });
    expect(stdout.trim().split("\n")).toEqual([
      "crdshift ConfigError DefinitionError Refusal STASH_ANNOTATION createApp createJsonLogger createMetrics createRegistry defineKind jsonLogger mapping readConfig refuse silentLogger stashFields unstashFields",
      "crdshift/testing arbitraryFor assertGolden assertMatchesCrd assertRoundTrips checkAgainstCrd checkGolden checkKind checkKinds checkReply crdObjectArbitrary crdValueArbitrary readCrds readGoldenCases",
      "crdshift/node serve",
      "crdshift/workers createWorker",
      "crdshift/lambda FUNCTION_URL_PAYLOAD_BYTES FUNCTION_URL_REPLY_BYTES createHandler",
    ]);
    // What the user then adds as devDependencies: linked from this repository.
    mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
    mkdirSync(join(project, "node_modules/@types"), { recursive: true });
    for (const tool of TOOLS) symlinkSync(join(root, "node_modules", tool), join(project, "node_modules", tool), "dir");
    for (const [bin, file] of Object.entries(BINS))
      symlinkSync(join("..", file), join(project, "node_modules/.bin", bin));
  });

  it("type-checks under tsc --init's settings (nodenext, strict), and under moduleResolution bundler with crdshift's declarations checked too", async () => {
    await npx(["tsc", "--init"]);
    const settings = readFileSync(join(project, "tsconfig.json"), "utf8");
    expect(settings).toMatch(/"module": "nodenext"/);
    expect(settings).toMatch(/"strict": true/);
    await inProject(["run", "typecheck"]);
    await npx(["tsc", "-p", "tsconfig.bundler.json"]);
  });

  // Its own test: with aws-cdk-lib's declarations checked too, minutes on a loaded machine.
  it(
    "type-checks every subpath under nodenext, strict, with every declaration checked (skipLibCheck off)",
    { timeout: 900_000 },
    async () => {
      // nodenext reads crdshift's declarations as Node resolves them: every specifier a file.
      const { stdout } = await npx(["tsc", "-p", "tsconfig.nodenext.json", "--listFilesOnly"]);
      expect(stdout).toMatch(/node_modules\/crdshift\/dist\/types\/platforms\/aws-cdk\/aws-cdk\.d\.ts/);
      await npx(["tsc", "-p", "tsconfig.nodenext.json"]);
    },
  );

  it("proves the kind with assertRoundTrips in its own vitest run", async () => {
    const { stdout } = await inProject(["test"]);
    expect(stdout).toMatch(/1 passed/);
  });

  it("serves it with serve(registry) from crdshift/node, over HTTP", async () => {
    await inProject(["run", "build:server"]);
    const server = spawn(process.execPath, ["dist/server.js"], {
      cwd: project,
      env: offlineEnv({ PORT: "0", HOST: "127.0.0.1", CRDSHIFT_TOKEN: TOKEN }),
    });
    running.push(server);
    const base = await listeningOn(server, "the server");
    const res = await fetch(`${base}/convert/${TOKEN}?timeout=30s`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(sent),
    });
    const text = await res.text();
    expect(checkReply(sent, res.status, text, res.headers.get("content-type") ?? "")).toMatchObject({ ok: true });
    expect(JSON.parse(text).response.convertedObjects).toEqual([converted]);
    server.kill("SIGTERM");
  });

  it("serves it with createWorker(registry) from crdshift/workers, bundled by wrangler, inside workerd", async () => {
    await inProject(["run", "build:worker"]);
    const bundle = join(project, "dist/worker/worker.js");
    // The CloudWatch SDK was not passed to createWorker: none of it is in the Worker.
    expect(readFileSync(bundle, "utf8")).not.toContain("GraniteServiceVersion20100801");
    const mf = new Miniflare({
      modules: true,
      scriptPath: bundle,
      modulesRoot: join(project, "dist/worker"),
      compatibilityDate: "2026-04-20",
      bindings: { CRDSHIFT_TOKEN: TOKEN },
    });
    try {
      const res = await mf.dispatchFetch(`https://my-crds.example.workers.dev/convert/${TOKEN}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(sent),
      });
      const text = await res.text();
      expect(checkReply(sent, res.status, text, res.headers.get("content-type") ?? "")).toMatchObject({ ok: true });
      expect(JSON.parse(text).response.convertedObjects).toEqual([converted]);
    } finally {
      await mf.dispose();
    }
  });

  it("serves it with createHandler(registry) from crdshift/lambda, bundled by esbuild, for function URL events; 6 MiB is the body limit without any setting", async () => {
    await inProject(["run", "build:lambda"]);
    const lambda = new LambdaHost({ CRDSHIFT_TOKEN: TOKEN }, join(project, "dist/lambda/index.mjs"));
    try {
      const path = `/convert/${TOKEN}`;
      const result = await lambda.invoke(functionUrlEvent({ path, body: JSON.stringify(sent) }));
      expect(checkReply(sent, result.statusCode, result.body, result.headers["content-type"])).toMatchObject({
        ok: true,
      });
      expect(JSON.parse(result.body).response.convertedObjects).toEqual([converted]);
      const big = review([{ ...object, padding: "x".repeat(6 * 1024 * 1024) }]);
      expect((await lambda.invoke(functionUrlEvent({ path, body: JSON.stringify(big) }))).statusCode).toBe(413);
    } finally {
      await lambda.stop();
    }
  });

  it("deploys it with the CrdshiftWebhook construct from crdshift/aws-cdk: synthesized and read by the CDK CLI, without credentials", async () => {
    const cdkHome = join(dir, "home");
    mkdirSync(cdkHome);
    const env = offlineEnv({ HOME: cdkHome });
    await inProject(["run", "synth:aws", "--", "--no-notices"], env);
    const template = JSON.parse(readFileSync(join(project, "cdk.out/MyCrdsWebhook.template.json"), "utf8"));
    const fn = Object.values(
      template.Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>,
    ).find((r) => r.Type === "AWS::Lambda::Function")!;
    expect(fn.Properties).toMatchObject({ Runtime: "nodejs22.x", Architectures: ["arm64"], Handler: "index.handler" });
    expect(template.Parameters.PathToken).toMatchObject({ NoEcho: true });
    expect(Object.keys(template.Outputs)).toEqual(["WebhookUrlPrefix", "WebhookAliasName"]);
    // The asset is the user's own bundle.
    const asset = readdirSync(join(project, "cdk.out")).find((name) => name.startsWith("asset."))!;
    expect(readFileSync(join(project, "cdk.out", asset, "index.mjs"))).toEqual(
      readFileSync(join(project, "dist/lambda/index.mjs")),
    );
    const ls = await npx(["cdk", "ls", "--app", "cdk.out", "--no-notices"], env);
    expect(ls.stdout.trim()).toBe("MyCrdsWebhook");
  });

  it("checks the project's registry with npx crdshift check, found by crdshift.config.ts, writing nothing into node_modules", async () => {
    const installed = () => readdirSync(join(project, "node_modules/crdshift"), { recursive: true }).map(String).sort();
    const before = installed();
    const { stdout } = await npx(["crdshift", "check", "--runs", "50"]);
    expect(stdout).toContain("E2eTestCrd.stable.example.com\n  v2 -> v1 -> v2");
    expect(stdout).toContain("ok: every version of 1 kind(s) reaches every other one");
    expect(installed()).toEqual(before);
  });

  it("says in one line what to install for crdshift migrate, whose cluster client is an optional peer the install leaves out", async () => {
    expect(existsSync(join(project, "node_modules/@kubernetes/client-node"))).toBe(false);
    const { code, stdout, stderr } = await run("npx", ["--no-install", "crdshift", "migrate", "plan", "--all"], {
      cwd: project,
      allowFailure: true,
    });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual([
      expect.stringContaining("crdshift migrate needs @kubernetes/client-node 1.x beside crdshift: npm install"),
    ]);
  });
});
