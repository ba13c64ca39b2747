import { sortVersions } from "../conversion";
import { type CrdManifest, readCrd } from "../kube/crd";
import type { Cluster } from "./cluster";

/** The CRD API, read and written as plain JSON: nothing of the manifest is dropped by a typed model. */
export const CRD_API = { group: "apiextensions.k8s.io", version: "v1", plural: "customresourcedefinitions" } as const;

/** Where a CRD's objects are stored, as the cluster says it. */
export interface StorageState {
  crd: CrdManifest;
  /** The version marked `storage: true`: where every write stores an object. */
  storage: string;
  /** `status.storedVersions`: every version objects may still be stored in. */
  storedVersions: string[];
  /**
   * The version every list, read and write goes through: the storage version when it is served,
   * else the served version of highest Kubernetes priority (the apiserver serves no endpoint for
   * a version marked `served: false`, and stores every write in the storage version whatever
   * version the request used). Empty when the CRD serves no version at all.
   */
  through: string;
  /** Stored versions other than the storage version: what a migration rewrites away. */
  stale: string[];
  /** The CRD's metadata.resourceVersion, the precondition of the status update. */
  resourceVersion: string;
  /** The CRD's metadata.generation: the apiserver skips its own pruning when it changed. */
  generation: number;
}

/** A CRD as the cluster holds it, by name (`crontabs.example.com`). */
export async function readStorageState(cluster: Cluster, name: string): Promise<StorageState> {
  const document = (await cluster.call(
    { verb: "get", resource: "customresourcedefinitions.apiextensions.k8s.io", doing: `reading the CRD ${name}` },
    () => cluster.objects.getClusterCustomObject({ ...CRD_API, name }, cluster.options()),
  )) as Record<string, unknown>;
  return storageStateOf(document, name);
}

/** The CRDs of the cluster whose objects may be stored in more than one version. */
export async function crdsToMigrate(cluster: Cluster): Promise<string[]> {
  const list = (await cluster.call(
    { verb: "list", resource: "customresourcedefinitions.apiextensions.k8s.io", doing: "listing the cluster's CRDs" },
    () => cluster.objects.listClusterCustomObject({ ...CRD_API }, cluster.options()),
  )) as { items?: Record<string, unknown>[] };
  return (list.items ?? [])
    .map((item) => storageStateOf(item, String((item.metadata as { name?: unknown } | undefined)?.name)))
    .filter((state) => state.stale.length > 0)
    .map((state) => state.crd.name);
}

export function storageStateOf(document: Record<string, unknown>, name: string): StorageState {
  const crd = readCrd(document, `the cluster's CRD ${name}`);
  const storage = crd.versions.find((version) => version.storage)?.name ?? "";
  const storedVersions = crd.storedVersions ?? [];
  const served = crd.versions.filter((version) => version.served).map((version) => version.name);
  const through = served.includes(storage) ? storage : (sortVersions(served)[0] ?? "");
  const metadata = (document.metadata ?? {}) as { resourceVersion?: unknown; generation?: unknown };
  return {
    crd,
    storage,
    through,
    storedVersions,
    stale: storedVersions.filter((version) => version !== storage),
    resourceVersion: String(metadata.resourceVersion ?? ""),
    generation: typeof metadata.generation === "number" ? metadata.generation : 0,
  };
}
