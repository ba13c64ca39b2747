import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The Cloudflare rollout, offline: scripts/cloudflare-rollout.sh uploads a Worker version that
 * shadows a candidate (test/fixtures/worker-shadow-entry.ts) with `wrangler versions upload
 * --dry-run`, as a user's wrangler.toml would (wrangler bundles `main`); the version it built
 * runs in miniflare's workerd. Deployments need an account: the script prints them.
 */
const root = fileURLToPath(new URL("../../", import.meta.url));
const script = join(root, "scripts/cloudflare-rollout.sh");
const entry = join(root, "test/fixtures/worker-shadow-entry.ts");
const work = mkdtempSync(join(tmpdir(), "crdshift-versions-"));
const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(
  readFileSync(join(root, "wrangler.toml"), "utf8"),
)![1]!;
const docsV1 = readFileSync(join(root, "examples/requests/docs-v1.json"), "utf8");
const docsV1Response = JSON.parse(readFileSync(join(root, "examples/requests/docs-v1.response.json"), "utf8"));

function rollout(args: string[]) {
  const run = spawnSync("sh", [script, ...args], {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      DRY_RUN: "1",
      OUTDIR: join(work, "version"),
      WRANGLER: join(root, "node_modules/.bin/wrangler"),
      WRANGLER_CONFIG: join(work, "wrangler.toml"),
      WRANGLER_SEND_METRICS: "false",
    },
  });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

let upload: { code: number | null; out: string };
let mf: Miniflare;
beforeAll(async () => {
  writeFileSync(
    join(work, "wrangler.toml"),
    `name = "crdshift-rollout-test"\nmain = ${JSON.stringify(entry)}\ncompatibility_date = "${compatibilityDate}"\n`,
  );
  upload = rollout(["upload", entry, "0.05"]);
  mf = new Miniflare({
    modules: true,
    scriptPath: join(work, "version/worker-shadow-entry.js"),
    modulesRoot: join(work, "version"),
    compatibilityDate,
    bindings: { CRDSHIFT_SHADOW_SAMPLE: "0.05" },
  });
  await mf.ready;
}, 120_000);
afterAll(async () => {
  await mf?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("scripts/cloudflare-rollout.sh", () => {
  it("uploads a version with the shadow setting (dry run: built, not sent)", () => {
    expect(upload.code, upload.out).toBe(0);
    expect(upload.out).toMatch(/env\.CRDSHIFT_SHADOW_SAMPLE/);
    expect(upload.out).toMatch(/--dry-run: exiting now/);
  });

  it("built a Worker that shadows, and answers as the released converters do", async () => {
    const health = await mf.dispatchFetch("https://crdshift.test/healthz");
    expect(await health.json()).toEqual({ status: "ok", shadow: { sample: 0.05 } });
    const res = await mf.dispatchFetch("https://crdshift.test/convert?timeout=30s", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: docsV1,
    });
    expect(await res.json()).toEqual(docsV1Response);
  });

  it("splits traffic between two versions, and moves it all to one", () => {
    expect(rollout(["split", "new-id", "old-id", "10"]).out).toBe(
      "would run: wrangler versions deploy new-id@10% old-id@90% --yes --message crdshift: new-id at 10%\n",
    );
    expect(rollout(["full", "new-id"]).out).toBe(
      "would run: wrangler versions deploy new-id@100% --yes --message crdshift: new-id at 100%\n",
    );
    expect(rollout(["split", "new-id", "old-id", "110"])).toMatchObject({ code: 2 });
  });
});
