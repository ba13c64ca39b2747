import { describe, expect, it } from "vitest";
import type { ApiserverStandIn } from "./stand-in/apiserver-stand-in";
import { StatusError } from "./stand-in/stored-objects";
import { crdshift, storedVersions, v1, v1beta1 } from "./stand-in/scenario";
import { useStandIn } from "./stand-in/use-stand-in";

/**
 * crdshift migrate against a stand-in apiserver (test/migration/stand-in/) that stores each
 * object in a version and converts through crdshift's real webhook over HTTP, reached through
 * @kubernetes/client-node and a kubeconfig, as a cluster would be.
 */

/** Ten CronTabs in two namespaces: seven still stored in v1beta1, three written since the switch to v1. */
function crontabs(): Record<string, unknown>[] {
  return [
    ...Array.from({ length: 4 }, (_, i) => v1beta1("default", `old-${i}`, `host-${i}.example.com:80${i}`)),
    ...Array.from({ length: 3 }, (_, i) => v1beta1("team-a", `old-${i}`, `team-${i}.example.com:90${i}`)),
    ...Array.from({ length: 3 }, (_, i) => v1("team-a", `new-${i}`, `new-${i}.example.com`, `70${i}`)),
  ];
}

const { cluster } = useStandIn(crontabs);

describe("crdshift migrate, by no-op updates", () => {
  it("rewrites every object across pages, a conflict, a deletion and an expired continue token, prunes storedVersions to [v1], and a second run does nothing", async () => {
    const { apiserver, kubeconfig } = await cluster({});
    let conflicted = false;
    let deleted = false;
    apiserver.hooks.expireNextContinue = true;
    apiserver.hooks.beforePatch = async (key) => {
      // Someone else writes this object between crdshift's list and its write: a 409.
      if (key === "default/old-2" && !conflicted) {
        conflicted = true;
        await apiserver.store.touch(key);
      }
      // And this one is deleted between the list and the write: a 404.
      if (key === "team-a/old-1" && !deleted) {
        deleted = true;
        apiserver.store.objects.delete(key);
      }
    };
    expect(Object.values(storedVersions(apiserver)).filter((version) => version === "v1beta1")).toHaveLength(7);

    const first = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig, "--page-size", "3"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      "crontabs.example.com: 9 of 10 objects rewritten in v1, 1 deleted meanwhile, 1 conflicts retried, 1 expired list pages continued; status.storedVersions set to [v1] (was v1beta1, v1)\n",
    );
    expect(conflicted && deleted).toBe(true);
    expect(new Set(Object.values(storedVersions(apiserver)))).toEqual(new Set(["v1"]));
    expect(apiserver.store.objects.has("team-a/old-1")).toBe(false);
    expect(apiserver.storedVersions).toEqual(["v1"]);
    // Written in v1 by the webhook's conversion, not by crdshift: host and port split from hostPort.
    expect(apiserver.store.objects.get("default/old-3")!.body).toMatchObject({
      apiVersion: "example.com/v1",
      host: "host-3.example.com",
      port: "803",
    });
    const lists = apiserver.requests.filter((request) => request === "GET /apis/example.com/v1/crontabs");
    expect(lists.length).toBeGreaterThanOrEqual(4);

    const writes = apiserver.store.writes.length;
    const requests = apiserver.requests.length;
    const second = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(second).toEqual({
      code: 0,
      stdout: "crontabs.example.com: nothing to do, status.storedVersions is [v1]\n",
      stderr: "",
    });
    expect(apiserver.store.writes.length).toBe(writes);
    expect(apiserver.requests.slice(requests).filter((request) => !request.startsWith("GET"))).toEqual([]);
  }, 60_000);

  it("starts the list again when an expired continue token comes with no inconsistent one, so no object is left in v1beta1", async () => {
    const { apiserver, kubeconfig } = await cluster({});
    apiserver.hooks.expireNextContinue = true;
    apiserver.hooks.expireWithoutToken = true;
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig, "--page-size", "3"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(new Set(Object.values(storedVersions(apiserver)))).toEqual(new Set(["v1"]));
    expect(apiserver.storedVersions).toEqual(["v1"]);
    // The objects of the first page, listed again by the restarted list, count once.
    expect(result.stdout).toBe(
      "crontabs.example.com: 10 of 10 objects rewritten in v1, 1 expired list pages continued; status.storedVersions set to [v1] (was v1beta1, v1)\n",
    );
  }, 60_000);

  it("counts each object once after a restarted list, an object deleted before the restart counted as deleted, not listed", async () => {
    const { apiserver, kubeconfig } = await cluster({});
    apiserver.hooks.expireNextContinue = true;
    apiserver.hooks.expireWithoutToken = true;
    apiserver.hooks.beforePatch = (key) => {
      if (key === "default/old-1") apiserver.store.objects.delete(key);
    };
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig, "--page-size", "3"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      "crontabs.example.com: 9 of 10 objects rewritten in v1, 1 deleted meanwhile, 1 expired list pages continued; status.storedVersions set to [v1] (was v1beta1, v1)\n",
    );
  }, 60_000);

  it("prunes nothing when the storage version was switched away and back during the run (objects written meanwhile are stored in v1beta1)", async () => {
    const { apiserver, kubeconfig } = await cluster({});
    apiserver.hooks.beforePatch = (key) => {
      if (key === "default/old-1") apiserver.setStorageVersion("v1beta1");
      if (key === "team-a/new-0") apiserver.setStorageVersion("v1");
    };
    const result = await crdshift([
      "migrate",
      "crontabs.example.com",
      "--kubeconfig",
      kubeconfig,
      "--concurrency",
      "1",
    ]);
    expect(Object.values(storedVersions(apiserver))).toContain("v1beta1");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^crdshift migrate: the CRD crontabs\.example\.com changed .*storedVersions is left as it is/,
    );
    expect(apiserver.storedVersions).toEqual(["v1beta1", "v1"]);
  }, 60_000);

  it("stops at a 404 that names no object (a proxy's, a version not served), never skipping the object as deleted", async () => {
    const { apiserver, kubeconfig } = await cluster({});
    apiserver.hooks.beforePatch = (key) => {
      if (key === "default/old-2")
        throw new StatusError(404, "NotFound", "the server could not find the requested resource");
    };
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^crdshift migrate: rewriting crontabs\.example\.com default\/old-2 failed with HTTP 404/,
    );
    expect(storedVersions(apiserver)["default/old-2"]).toBe("v1beta1");
    expect(apiserver.storedVersions).toEqual(["v1beta1", "v1"]);
  }, 60_000);

  it("stops at an object the webhook fails to convert, naming it, and leaves storedVersions untouched", async () => {
    const { apiserver, kubeconfig } = await cluster({}, [...crontabs(), v1beta1("default", "broken", "no-port-here")]);
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^crdshift migrate: the apiserver could not convert while listing crontabs\.example\.com in v1: conversion webhook for example\.com\/v1beta1, Kind=CronTab failed: .*default\/broken.*hostPort could not be parsed/,
    );
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(apiserver.storedVersions).toEqual(["v1beta1", "v1"]);
    expect(storedVersions(apiserver)["default/broken"]).toBe("v1beta1");
  }, 60_000);

  it("names the verb a 403 on a StorageVersionMigration lacks, and the way around it", async () => {
    const { apiserver, kubeconfig } = await cluster({
      migrationApi: "v1",
      forbidden: ["create storageversionmigrations.storagemigration.k8s.io"],
    });
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /needs "create" on storageversionmigrations\.storagemigration\.k8s\.io \(or run with --no-api to write each object instead\)/,
    );
    const around = await crdshift(["migrate", "crontabs.example.com", "--no-api", "--kubeconfig", kubeconfig]);
    expect(around.code).toBe(0);
    expect(apiserver.storedVersions).toEqual(["v1"]);
    expect(apiserver.migrations.created.size).toBe(0);
  }, 60_000);

  it("names the verb and resource a 403 lacks, and prunes nothing", async () => {
    const { apiserver, kubeconfig } = await cluster({ forbidden: ["patch crontabs.example.com"] });
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^crdshift migrate: forbidden while rewriting crontabs\.example\.com default\/old-0: crdshift migrate needs "patch" on crontabs\.example\.com \(.*cannot patch resource "crontabs" in API group "example\.com".*\)/,
    );
    expect(apiserver.storedVersions).toEqual(["v1beta1", "v1"]);
  }, 60_000);

  it("writes every object but leaves storedVersions when the CRD's status may not be patched, saying so", async () => {
    const { apiserver, kubeconfig } = await cluster({ forbidden: ["patch customresourcedefinitions/status"] });
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/needs "patch" on customresourcedefinitions\/status/);
    expect(new Set(Object.values(storedVersions(apiserver)))).toEqual(new Set(["v1"]));
    expect(apiserver.storedVersions).toEqual(["v1beta1", "v1"]);
  }, 60_000);
});

describe("crdshift migrate, when the storage version is not served", () => {
  const storageNotServed = (apiserver: ApiserverStandIn) => {
    const versions = (apiserver.crd.spec as { versions: { name: string; served: boolean }[] }).versions;
    versions.find((version) => version.name === "v1")!.served = false;
  };

  it("lists and writes through the served version of highest priority (v1beta1), every object stored in v1, and says so", async () => {
    const { apiserver, kubeconfig } = await cluster({});
    storageNotServed(apiserver);
    const plan = await crdshift(["migrate", "plan", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(plan.stderr).toBe("");
    expect(plan.stdout).toContain(
      "  requests through: v1beta1 (v1 is served: false; the apiserver stores every write in v1 whatever version it came through)\n  objects:          10, each read in v1beta1",
    );
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig, "--page-size", "4"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "crontabs.example.com: 10 of 10 objects rewritten in v1 (through v1beta1, v1 being served: false); status.storedVersions set to [v1] (was v1beta1, v1)\n",
    );
    expect(new Set(Object.values(storedVersions(apiserver)))).toEqual(new Set(["v1"]));
    expect(apiserver.storedVersions).toEqual(["v1"]);
    expect(apiserver.requests.filter((request) => request.startsWith("PATCH /apis/example.com/v1/"))).toEqual([]);
    expect(apiserver.requests.some((request) => request.startsWith("PATCH /apis/example.com/v1beta1/"))).toBe(true);
  }, 60_000);

  it("names the CRD and exits 2 when it serves no version at all, writing nothing", async () => {
    const { apiserver, kubeconfig } = await cluster({});
    for (const version of (apiserver.crd.spec as { versions: { served: boolean }[] }).versions) version.served = false;
    for (const args of [["migrate"], ["migrate", "plan"]]) {
      const result = await crdshift([...args, "crontabs.example.com", "--kubeconfig", kubeconfig]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "crdshift migrate: the cluster's CRD crontabs.example.com serves no version (every one of v1alpha1, v1beta1, v1 is served: false), so its objects cannot be listed or written: mark one served: true (kubectl edit crd crontabs.example.com), then migrate\n",
      );
    }
    expect(apiserver.store.writes).toEqual([]);
    expect(apiserver.storedVersions).toEqual(["v1beta1", "v1"]);
  }, 60_000);
});

describe("crdshift migrate --all", () => {
  it("migrates every CRD of the cluster with more than one stored version, then finds none", async () => {
    const { apiserver, kubeconfig } = await cluster({});
    const first = await crdshift(["migrate", "--all", "--kubeconfig", kubeconfig]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^crontabs\.example\.com: 10 of 10 objects rewritten in v1; status\.storedVersions set to \[v1\]/,
    );
    expect(apiserver.storedVersions).toEqual(["v1"]);
    const second = await crdshift(["migrate", "--all", "--kubeconfig", kubeconfig]);
    expect(second).toEqual({
      code: 0,
      stdout: "every CRD of the cluster stores one version: nothing to do\n",
      stderr: "",
    });
  }, 60_000);
});

describe("crdshift migrate --prune-managed-fields", () => {
  it("removes the managedFields entries of versions no longer served, keeping the others", async () => {
    const entry = (manager: string, version: string) => ({
      manager,
      operation: "Apply",
      apiVersion: `example.com/${version}`,
      fieldsType: "FieldsV1",
      fieldsV1: { "f:spec": {} },
    });
    const withFields = (object: Record<string, unknown>, entries: unknown[]) => ({
      ...object,
      metadata: { ...(object.metadata as object), managedFields: entries },
    });
    const { apiserver, kubeconfig } = await cluster({}, [
      withFields(v1beta1("default", "mixed", "a.example.com:80"), [
        entry("old-tool", "v1alpha1"),
        entry("kubectl", "v1beta1"),
      ]),
      withFields(v1beta1("default", "only-old", "b.example.com:80"), [entry("old-tool", "v1alpha1")]),
      withFields(v1("default", "current", "c.example.com", "80"), [entry("kubectl", "v1")]),
    ]);
    // v1alpha1 is no longer served.
    (apiserver.crd.spec as { versions: { name: string; served: boolean }[] }).versions[0]!.served = false;
    const result = await crdshift([
      "migrate",
      "crontabs.example.com",
      "--prune-managed-fields",
      "--kubeconfig",
      kubeconfig,
    ]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/; managedFields of versions no longer served: 2 entries removed from 2 objects\n$/);
    const fields = (key: string) =>
      (
        (apiserver.store.objects.get(key)!.body.metadata as { managedFields: { manager: string }[] }).managedFields ??
        []
      ).map((found) => found.manager);
    expect(fields("default/mixed")).toEqual(["kubectl"]);
    expect(fields("default/only-old")).toEqual([]);
    expect(fields("default/current")).toEqual(["kubectl"]);
    expect(apiserver.storedVersions).toEqual(["v1"]);
  }, 60_000);
});

describe("crdshift migrate, through the StorageVersionMigration API", () => {
  it("reaches the same end state through a StorageVersionMigration, the apiserver pruning storedVersions (1.36 on)", async () => {
    const { apiserver, kubeconfig } = await cluster({ migrationApi: "v1beta1", apiserverPrunes: true });
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(0);
    const [name] = [...apiserver.migrations.created.keys()];
    expect(result.stdout).toBe(
      `crontabs.example.com: the StorageVersionMigration ${name} succeeded; the apiserver already set status.storedVersions to [v1]\n`,
    );
    expect(apiserver.migrations.created.get(name!)!.spec).toEqual({
      resource: { group: "example.com", resource: "crontabs" },
    });
    expect(new Set(Object.values(storedVersions(apiserver)))).toEqual(new Set(["v1"]));
    expect(apiserver.storedVersions).toEqual(["v1"]);
    // crdshift itself wrote no object and no CRD status.
    expect(apiserver.requests.filter((request) => request.startsWith("PATCH"))).toEqual([]);
  }, 60_000);

  it("prunes storedVersions itself when the apiserver does not (v1, before 1.36's pruning)", async () => {
    const { apiserver, kubeconfig } = await cluster({ migrationApi: "v1" });
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /StorageVersionMigration .* succeeded; status\.storedVersions set to \[v1\] \(was v1beta1, v1\)\n$/,
    );
    expect(apiserver.storedVersions).toEqual(["v1"]);
    expect(apiserver.requests.filter((request) => request.startsWith("PATCH /apis/example.com"))).toEqual([]);
  }, 60_000);

  it("reads the StorageVersionMigration again after a failed read (503), the migration going on in the cluster", async () => {
    const { apiserver, kubeconfig } = await cluster({ migrationApi: "v1" });
    apiserver.hooks.failMigrationReads = 2;
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(0);
    expect(apiserver.hooks.failMigrationReads).toBe(0);
    expect(result.stderr).toMatch(/HTTP 503.*reading it again\n/);
    expect(result.stdout).toMatch(/StorageVersionMigration .* succeeded; status\.storedVersions set to \[v1\]/);
    expect(apiserver.migrations.created.size).toBe(1);
    expect(apiserver.storedVersions).toEqual(["v1"]);
  }, 60_000);

  it("gives up after a bounded number of failed reads in a row, saying the migration goes on", async () => {
    const { apiserver, kubeconfig } = await cluster({ migrationApi: "v1" });
    apiserver.hooks.failMigrationReads = 100;
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /crdshift migrate: reading the StorageVersionMigration \S+ failed with HTTP 503.* \(5 reads in a row\); the StorageVersionMigration \S+ goes on in the cluster: run crdshift migrate again to follow it\n$/,
    );
    expect(apiserver.hooks.failMigrationReads).toBe(95);
    expect(apiserver.storedVersions).toEqual(["v1beta1", "v1"]);
  }, 60_000);

  it("follows, on a rerun, the StorageVersionMigration an earlier run left running (found by its label), creating no second one", async () => {
    const { apiserver, kubeconfig } = await cluster({ migrationApi: "v1" });
    let release = () => {};
    apiserver.hooks.holdMigrations = new Promise<void>((resolve) => (release = resolve));
    const first = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig, "--timeout", "1"]);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/did not finish within 1 s; it goes on in the cluster/);
    const [name] = [...apiserver.migrations.created.keys()];
    expect(apiserver.migrations.created.get(name!)!.metadata.labels).toEqual({
      "app.kubernetes.io/managed-by": "crdshift",
    });
    setTimeout(release, 500);
    const second = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`StorageVersionMigration ${name}: created by an earlier run, followed\n`);
    expect(second.stdout).toMatch(
      new RegExp(`^crontabs\\.example\\.com: the StorageVersionMigration ${name} succeeded;`),
    );
    expect(apiserver.migrations.created.size).toBe(1);
    expect(apiserver.storedVersions).toEqual(["v1"]);
    expect(new Set(Object.values(storedVersions(apiserver)))).toEqual(new Set(["v1"]));
  }, 60_000);

  it("stops on a failed StorageVersionMigration, quoting its condition, with storedVersions untouched", async () => {
    const { apiserver, kubeconfig } = await cluster({ migrationApi: "v1beta1", apiserverPrunes: true }, [
      ...crontabs(),
      v1beta1("default", "broken", "no-port-here"),
    ]);
    const result = await crdshift(["migrate", "crontabs.example.com", "--kubeconfig", kubeconfig]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^crdshift migrate: the StorageVersionMigration \S+ failed: MigrationFailed: .*default\/broken.*; status\.storedVersions is left as it is\n$/,
    );
    expect(apiserver.storedVersions).toEqual(["v1beta1", "v1"]);
  }, 60_000);
});
