import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from "@kubernetes/client-node";
import { afterAll, describe, expect, it } from "vitest";
import { crdshift } from "./stand-in/scenario";

/**
 * The stand-in's scenario against a real cluster, when KUBECONFIG names one (a disposable one:
 * kind or k3d). The CRD converts with strategy None (the cluster cannot reach a webhook on this
 * machine), so this proves the apiserver's side: storage, pagination, the status subresource,
 * the StorageVersionMigration API where it is served. Conflicts, deletions and expired tokens
 * mid-way are the stand-in's to show: a real cluster does not make them on cue.
 */
const kubeconfig = process.env.KUBECONFIG;
const GROUP = "migrate.crdshift.test";
const PLURAL = `widgets${process.pid}`;
const NAME = `${PLURAL}.${GROUP}`;
const OBJECTS = 12;

const title = kubeconfig
  ? `crdshift migrate against the cluster of KUBECONFIG (${kubeconfig})`
  : "crdshift migrate against a real cluster: skipped, KUBECONFIG is not set (point it at a disposable cluster to run it)";

describe.skipIf(!kubeconfig)(title, () => {
  const config = new KubeConfig();
  if (kubeconfig) config.loadFromDefault();
  const crds = kubeconfig ? config.makeApiClient(ApiextensionsV1Api) : undefined!;
  const objects = kubeconfig ? config.makeApiClient(CustomObjectsApi) : undefined!;
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
  });

  afterAll(async () => {
    if (kubeconfig) await crds.deleteCustomResourceDefinition({ name: NAME }).catch(() => undefined);
  });

  /** Polls `check` until it holds, for at most `ms`. */
  async function until(check: () => Promise<boolean>, ms: number, what: string) {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it("rewrites every object stored in v1beta1 and prunes storedVersions to [v1]; a second run does nothing", async () => {
    await crds.createCustomResourceDefinition({
      body: {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: { name: NAME },
        spec: {
          group: GROUP,
          scope: "Namespaced",
          names: { plural: PLURAL, singular: PLURAL.slice(0, -1), kind: `Widget${process.pid}` },
          versions: [version("v1beta1", true), version("v1", false)],
        },
      },
    });
    await until(
      async () =>
        (await crds.readCustomResourceDefinition({ name: NAME })).status?.conditions?.some(
          (c) => c.type === "Established" && c.status === "True",
        ) ?? false,
      60_000,
      "the CRD established",
    );
    for (let i = 0; i < OBJECTS; i++)
      await objects.createNamespacedCustomObject({
        group: GROUP,
        version: "v1beta1",
        namespace: "default",
        plural: PLURAL,
        body: { apiVersion: `${GROUP}/v1beta1`, kind: `Widget${process.pid}`, metadata: { name: `w-${i}` }, size: i },
      });
    // The docs page's step 1: v1 becomes the storage version.
    await crds.patchCustomResourceDefinition(
      { name: NAME, body: { spec: { versions: [version("v1beta1", false), version("v1", true)] } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    const stored = async () => (await crds.readCustomResourceDefinition({ name: NAME })).status?.storedVersions;
    await until(async () => (await stored())?.length === 2, 30_000, "storedVersions [v1beta1, v1]");

    const first = await crdshift(["migrate", NAME, "--page-size", "5", "--kubeconfig", kubeconfig!]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^${NAME.replace(/\./g, "\\.")}: .*status\\.storedVersions`));
    expect(await stored()).toEqual(["v1"]);

    const second = await crdshift(["migrate", NAME, "--kubeconfig", kubeconfig!]);
    expect(second).toEqual({ code: 0, stdout: `${NAME}: nothing to do, status.storedVersions is [v1]\n`, stderr: "" });
  }, 180_000);
});
