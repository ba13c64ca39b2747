import type { Cluster } from "./cluster";
import { CRD_API, type StorageState } from "./storage-state";

/**
 * Sets `status.storedVersions` to the storage version alone, through the CRD's status
 * subresource, at the resourceVersion the state was read at: if the CRD changed since (its
 * storage version switched again), the apiserver answers 409 and nothing is pruned. Called only
 * once every object is written in the storage version: a version left out of storedVersions
 * while objects are still stored in it makes them unreadable once it is removed.
 */
export async function pruneStoredVersions(cluster: Cluster, state: StorageState): Promise<void> {
  const name = state.crd.name;
  await cluster.call(
    {
      verb: "patch",
      resource: "customresourcedefinitions/status (apiextensions.k8s.io)",
      doing: `pruning status.storedVersions of ${name}`,
    },
    () =>
      cluster.objects.patchClusterCustomObjectStatus(
        {
          ...CRD_API,
          name,
          body: {
            metadata: { resourceVersion: state.resourceVersion },
            status: { storedVersions: [state.storage] },
          },
        },
        cluster.options("merge"),
      ),
  );
}
