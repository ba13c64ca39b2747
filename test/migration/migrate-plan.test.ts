import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { closedPort } from "../cli/local-server";
import { writeKubeconfig } from "./stand-in/kubeconfig";
import { crdshift, storedVersions, v1, v1beta1 } from "./stand-in/scenario";
import { useStandIn } from "./stand-in/use-stand-in";

const objects = () => [
  v1beta1("default", "a", "a.example.com:80"),
  v1beta1("default", "b", "b.example.com:81"),
  v1("default", "c", "c.example.com", "82"),
];

const { cluster } = useStandIn(objects);

describe("crdshift migrate plan", () => {
  it("says what is stored where, how many objects, and what it would do, writing nothing", async () => {
    const { apiserver, kubeconfig } = await cluster();
    const before = storedVersions(apiserver);
    const result = await crdshift(["migrate", "plan", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("crontabs.example.com (CronTab)\n  storage version:  v1 (storage: true)\n");
    expect(result.stdout).toContain("  storedVersions:   v1beta1, v1\n");
    expect(result.stdout).toContain("  objects:          3, each read in v1");
    // doctor's checks of the live CRD, with this repository's registry: the stand-in's webhook is plain http.
    expect(result.stdout).toMatch(
      / {2}webhook: {10}doctor: 2 errors, 0 warnings .*\n {2}webhook: {10}doctor: url-invalid: /,
    );
    expect(result.stdout).toContain(
      "  will:             rewrite 3 objects with a no-op update each (the cluster serves no StorageVersionMigration API),\n                    then set status.storedVersions to [v1] (dropping v1beta1)\n",
    );
    expect(apiserver.requests.filter((request) => !request.startsWith("GET"))).toEqual([]);
    expect(storedVersions(apiserver)).toEqual(before);
    // --dry-run is the same plan.
    const dry = await crdshift(["migrate", "--dry-run", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(dry).toEqual(result);
  }, 60_000);

  it("names the StorageVersionMigration it would create where the cluster serves the API", async () => {
    const { kubeconfig } = await cluster({ migrationApi: "v1" });
    const result = await crdshift(["migrate", "plan", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.stdout).toContain("will:             create a StorageVersionMigration (storagemigration.k8s.io/v1)");
  }, 60_000);

  it("tells the user to apply a file whose storage version the cluster does not have yet, and migrate refuses it", async () => {
    const { apiserver, kubeconfig } = await cluster();
    const crd = readFileSync(new URL("../../examples/crds/crontabs.example.com.yaml", import.meta.url), "utf8")
      .replace(/name: v1beta1\n(\s+)served: true\n\s+storage: false/, "name: v1beta1\n$1served: true\n$1storage: true")
      .replace(/name: v1\n(\s+)served: true\n\s+storage: true/, "name: v1\n$1served: true\n$1storage: false");
    const file = join(tmpdir(), `crdshift-migrate-plan-${process.pid}.yaml`);
    writeFileSync(file, crd);
    apiserver.setStorageVersion("v1beta1");
    // The cluster stores v1beta1; the user's file still says v1beta1 too: nothing blocks...
    const same = await crdshift(["migrate", "plan", "-f", file, "--kubeconfig", kubeconfig]);
    expect(same.stdout).not.toContain("first:");
    // ...but a file that marks v1 while the cluster stores v1beta1 must be applied first.
    writeFileSync(file, readFileSync(new URL("../../examples/crds/crontabs.example.com.yaml", import.meta.url)));
    const plan = await crdshift(["migrate", "plan", "-f", file, "--kubeconfig", kubeconfig]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      "  first:            the cluster's CRD crontabs.example.com stores v1beta1, the file marks v1 storage: true: apply the file first (kubectl apply -f), then migrate\n",
    );
    const run = await crdshift(["migrate", "-f", file, "--kubeconfig", kubeconfig]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/apply the file first/);
    expect(apiserver.requests.filter((request) => !request.startsWith("GET"))).toEqual([]);
  }, 60_000);

  it("reports an object the webhook cannot convert as what to fix first", async () => {
    const { kubeconfig } = await cluster({}, [...objects(), v1beta1("default", "broken", "no-port")]);
    const result = await crdshift(["migrate", "plan", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      / {2}first: {12}the apiserver could not convert .*default\/broken.*: fix the webhook or the object before migrating/,
    );
  }, 60_000);
});

describe("crdshift migrate's usage and reach", () => {
  it("says it cannot reach a cluster that does not answer, in one line, exit 2", async () => {
    const kubeconfig = writeKubeconfig(`https://127.0.0.1:${await closedPort()}`);
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^crdshift migrate: cannot reach the cluster at https:\/\/127\.0\.0\.1:\d+ while reading the CRD crontabs\.example\.com: .*ECONNREFUSED.*\n$/,
    );
  }, 30_000);

  it("never prints a kubeconfig's secrets: not the lines around a YAML error, not a password in the server's URL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crdshift-kubeconfig-"));
    try {
      const broken = join(dir, "kubeconfig");
      writeFileSync(
        broken,
        "apiVersion: v1\nusers:\n  - name: a\n    user:\n      token: SECRET-TOKEN-1\n      x: [open\n",
      );
      const unreadable = await crdshift(["migrate", "x.example.com", "--kubeconfig", broken]);
      expect(unreadable.code).toBe(2);
      expect(unreadable.stderr).toMatch(/^crdshift migrate: cannot read .*kubeconfig: .*\n$/);
      expect(unreadable.stderr).not.toContain("SECRET-TOKEN-1");
      expect(unreadable.stderr.trim().split("\n")).toHaveLength(1);

      const port = await closedPort();
      const withPassword = writeKubeconfig(`https://admin:SECRET-PASSWORD-2@127.0.0.1:${port}`);
      const unreachable = await crdshift(["migrate", "x.example.com", "--kubeconfig", withPassword]);
      expect(unreachable.code).toBe(2);
      expect(unreachable.stderr).toContain(`cannot reach the cluster at https://127.0.0.1:${port}/ `);
      expect(unreachable.stderr).not.toContain("SECRET-PASSWORD-2");
      rmSync(dirname(withPassword), { recursive: true, force: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it("refuses a kubeconfig it cannot read, and a call naming no CRD", async () => {
    const missing = await crdshift(["migrate", "x.example.com", "--kubeconfig", join(tmpdir(), "no-such-kubeconfig")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^crdshift migrate: cannot read .*no-such-kubeconfig/);
    const elsewhere = await crdshift([
      "migrate",
      "x.example.com",
      "--kubeconfig",
      writeKubeconfig("https://127.0.0.1:9"),
      "--context",
      "prod",
    ]);
    expect(elsewhere).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/has no context "prod" \(it has: stand-in\)\n$/),
    });
    for (const [flag, value] of [
      ["--concurrency", "100000"],
      ["--page-size", "100000000"],
      ["--concurrency", "0"],
    ]) {
      const unbounded = await crdshift(["migrate", "x.example.com", flag!, value!]);
      expect(unbounded).toMatchObject({ code: 2, stderr: expect.stringContaining(`${flag} must be`) });
    }
    const none = await crdshift(["migrate"]);
    expect(none).toMatchObject({ code: 2, stderr: expect.stringMatching(/-f CRD\.yaml, their names, or --all/) });
  });
});
