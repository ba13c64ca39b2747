import { inPool } from "./bounded-pool";
import type { Cluster } from "./cluster";
import { listPages } from "./list-pages";
import { resourceVersionOf, writeObject } from "./object-writes";
import type { StorageState } from "./storage-state";

export interface RewriteOptions {
  /** Objects per list page (the list's `limit`). */
  pageSize: number;
  /** Writes in flight at once. */
  concurrency: number;
  /** Attempts per object when others keep writing it (409 Conflict). */
  attempts: number;
  /** Called after each object with the counts so far. */
  progress?: (counts: RewriteCounts) => void;
}

export interface RewriteCounts {
  listed: number;
  rewritten: number;
  /** Deleted between the list and the write (404): nothing left to migrate. */
  gone: number;
  /** Writes repeated after a 409 Conflict. */
  conflicts: number;
  /** Lists continued after their continue token expired (410 Gone). */
  expiredPages: number;
}

/**
 * Writes every object of the CRD once, unchanged, so the apiserver stores it in the storage
 * version (the docs page's manual procedure). Each write is a JSON merge patch of nothing but
 * the resourceVersion it was read at: the apiserver reads the stored object, converts it, and
 * stores it in the storage version, while no field passes through JavaScript (an int64 beyond
 * 2^53 would not survive JSON.parse) and a concurrent write is a 409, not a lost update. An
 * object already stored in the storage version encodes to the same bytes and is not written
 * again, so running it twice is safe.
 */
export async function rewriteObjects(
  cluster: Cluster,
  state: StorageState,
  options: RewriteOptions,
): Promise<RewriteCounts> {
  const counts: RewriteCounts = { listed: 0, rewritten: 0, gone: 0, conflicts: 0, expiredPages: 0 };
  const noOp = (object: Record<string, unknown>) => ({ metadata: { resourceVersion: resourceVersionOf(object) } });
  for await (const items of listPages(cluster, state, options.pageSize, () => counts.expiredPages++)) {
    counts.listed += items.length;
    await inPool(items, options.concurrency, async (item) => {
      const outcome = await writeObject(cluster, state, item, noOp, options.attempts, () => counts.conflicts++);
      if (outcome === "gone") counts.gone++;
      else counts.rewritten++;
      options.progress?.(counts);
    });
  }
  return counts;
}
