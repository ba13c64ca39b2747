import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineEnv, run } from "./run";

/**
 * A CRD author's port of Kueue's MultiKueueCluster (test/fixtures/kueue-multikueuecluster), from
 * the packed tarball: a real CRD whose newer version is stricter where the upstream Go conversion
 * copies values, so the port declares refusals by reason. No golden files: what is held here is
 * held by `npm test` and `crdshift check` alone. A new throw beside the declared refusals fails
 * the check, and three independent slips are all named by one run. One npm install, reused by
 * editing the kind file.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURE = join(root, "test/fixtures/kueue-multikueuecluster");
const KIND_FILE = "src/kinds/multikueueclusters.kueue.x-k8s.io.ts";
const CONVERTERS = readFileSync(join(FIXTURE, "converters.ts.txt"), "utf8");

let dir: string;
let project: string;

const ok = (command: string, args: string[], cwd: string) => run(command, args, { cwd, env: offlineEnv() });
const sh = (command: string, args: string[], cwd: string) =>
  run(command, args, { cwd, env: offlineEnv(), allowFailure: true });
const npmTest = () => sh("npm", ["test", "--silent"], project);
const check = () => sh("npm", ["run", "check", "--silent"], project);

/** The kind file with `edit` applied, for the length of `body`. */
async function withConverters(edit: (source: string) => string, body: () => Promise<void>): Promise<void> {
  const changed = edit(CONVERTERS);
  expect(changed, "the slip applies").not.toBe(CONVERTERS);
  writeFileSync(join(project, KIND_FILE), changed);
  try {
    await body();
  } finally {
    writeFileSync(join(project, KIND_FILE), CONVERTERS);
  }
}

/** Replaces `from` in the kind file, which must hold it once. */
const replacing = (from: string, to: string) => (source: string) => {
  expect(source.split(from), `the kind file holds ${JSON.stringify(from)} once`).toHaveLength(2);
  return source.replace(from, to);
};

describe("porting Kueue's MultiKueueCluster, whose v1beta2 is stricter, with crdshift init", () => {
  beforeAll(async () => {
    for (const file of ["dist/index.js", "dist/cli.js"])
      if (!existsSync(join(root, file))) throw new Error(`${file} is missing: run \`npm run build\` (npm test does)`);
    dir = mkdtempSync(join(tmpdir(), "crdshift-kueue-"));
    const pack = await ok("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], root);
    const tarball = join(dir, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename);
    cpSync(join(FIXTURE, "multikueueclusters.yaml"), join(dir, "multikueueclusters.yaml"));
    await ok(
      "npx",
      [
        "--yes",
        "--prefer-offline",
        "--package",
        tarball,
        "crdshift",
        "init",
        "mkc",
        "--crd",
        "multikueueclusters.yaml",
        "--crdshift",
        `file:${tarball}`,
      ],
      dir,
    );
    project = join(dir, "mkc");
    writeFileSync(join(project, KIND_FILE), CONVERTERS);
    await ok("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], project);
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the faithful port passes npm test and npm run check, with no golden files, its refusals counted by reason", async () => {
    expect(existsSync(join(project, "golden"))).toBe(false);
    const test = await npmTest();
    expect(test.code, test.stdout + test.stderr).toBe(0);
    const checked = await check();
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    // Coverage: how many objects round-tripped of how many generated, and the refusals by reason.
    expect(checked.stdout).toMatch(
      /\n {2}v1beta1 -> v1beta2 -> v1beta1 {2}100 round trips of \d+ objects generated, [1-9]\d* refused as declared; /,
    );
    expect(checked.stdout).toMatch(
      /\n {4}refused [1-9]\d* for "both-sources" \(v1beta2 holds exactly one of a kubeConfig and a clusterProfileRef\), e\.g\. /,
    );
  });

  it("a refusal reason the pair does not declare is a type error", () =>
    withConverters(
      replacing(
        `throw refuse("no-source", "spec sets neither a kubeConfig location nor a clusterProfileRef");`,
        `throw refuse("no-sauce", "spec sets neither a kubeConfig location nor a clusterProfileRef");`,
      ),
      async () => {
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toMatch(/error TS2345: Argument of type '"no-sauce"' is not assignable/);
      },
    ));

  it("a new throw on a valid, rare object fails check with no golden files, though the pair declares other refusals", () =>
    withConverters(
      replacing(
        "const conditions = status?.conditions?.length ?? 0;",
        `const conditions = status?.conditions?.length ?? 0;
        if (status?.conditions?.some((condition) => condition.status === "Unknown"))
          throw new Error("cannot tell whether the cluster is connected");`,
      ),
      async () => {
        const checked = await check();
        expect(checked.code).toBe(1);
        expect(checked.stderr).toMatch(
          /MultiKueueCluster\.kueue\.x-k8s\.io v1beta1 -> v1beta2 -> v1beta1( \(a partial object\))?: the converter refused an object the CRD's v1beta1 schema accepts, naming no declared reason \(it declares "both-sources", .*\): cannot tell whether the cluster is connected\n/,
        );
        expect(checked.stderr).toMatch(/\n {2}object: \{.*"status":"Unknown"/);
        const test = await npmTest();
        expect(test.code).not.toBe(0);
        expect(test.stdout + test.stderr).toContain("cannot tell whether the cluster is connected");
      },
    ));

  it("three independent slips at once are all named by one check run", () =>
    withConverters(
      (source) =>
        [
          // Status left behind on the way up.
          replacing(
            "const out: V1beta2 = { ...rest, ...(status !== undefined ? { status } : {}) };",
            "const out: V1beta2 = { ...rest };",
          ),
          // The cluster profile forgotten on the way down.
          replacing("        if (clusterProfileRef !== undefined) out.clusterProfileRef = clusterProfileRef;\n", ""),
          // The kubeConfig's type forgotten on the way down.
          replacing(
            "if (kubeConfig !== undefined) out.kubeConfig = kubeConfig;",
            "if (kubeConfig !== undefined) out.kubeConfig = { location: kubeConfig.location };",
          ),
        ].reduce((text, slip) => slip(text), source),
      async () => {
        const checked = await check();
        expect(checked.code).toBe(1);
        expect(checked.stderr).toMatch(/not the same after the round trip: status(\.conditions)? was /);
        expect(checked.stderr).toMatch(/clusterProfileRef/);
        expect(checked.stderr).toMatch(/spec(\.clusterSource)?\.kubeConfig\.locationType/);
        expect(checked.stderr).toMatch(/\nMultiKueueCluster\.kueue\.x-k8s\.io: [3-9]\d* findings/);
      },
    ));
});
