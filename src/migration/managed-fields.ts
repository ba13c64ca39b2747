import { inPool } from "./bounded-pool";
import type { Cluster } from "./cluster";
import { listPages } from "./list-pages";
import { resourceVersionOf, writeObject } from "./object-writes";
import type { StorageState } from "./storage-state";

export interface ManagedFieldsCounts {
  /** Objects whose managedFields named a version no longer served. */
  objects: number;
  /** Entries removed from them. */
  entries: number;
}

/**
 * Removes the managedFields entries of versions the CRD no longer serves, as Cluster API's
 * crdmigrator does: server-side apply converts the fields an entry owns to its version, so an
 * entry of a removed version makes every apply to the object fail (kubernetes#111937). An object
 * left with no entry gets `[{}]`, the API's way to clear them (an empty list changes nothing).
 */
export async function pruneManagedFields(
  cluster: Cluster,
  state: StorageState,
  options: { pageSize: number; concurrency: number; attempts: number },
): Promise<ManagedFieldsCounts> {
  const served = new Set(state.crd.versions.filter((version) => version.served).map((version) => version.name));
  const stale = (entry: { apiVersion?: unknown }) => {
    const [group, version] = String(entry.apiVersion ?? "").split("/");
    return group === state.crd.group && version !== undefined && !served.has(version);
  };
  const counts: ManagedFieldsCounts = { objects: 0, entries: 0 };
  const patchFor = (object: Record<string, unknown>) => {
    const entries = ((object.metadata as { managedFields?: unknown }).managedFields ?? []) as {
      apiVersion?: unknown;
    }[];
    const kept = entries.filter((entry) => !stale(entry));
    if (kept.length === entries.length) return undefined;
    return { metadata: { resourceVersion: resourceVersionOf(object), managedFields: kept.length > 0 ? kept : [{}] } };
  };
  for await (const items of listPages(cluster, state, options.pageSize)) {
    await inPool(items, options.concurrency, async (item) => {
      const before = patchFor(item);
      if ((await writeObject(cluster, state, item, patchFor, options.attempts, () => {})) !== "written" || !before)
        return;
      counts.objects++;
      const entries = ((item.metadata as { managedFields?: unknown[] }).managedFields ?? []).length;
      const kept = (before.metadata.managedFields as unknown[]).filter(
        (entry) => Object.keys(entry as object).length > 0,
      );
      counts.entries += entries - kept.length;
    });
  }
  return counts;
}
