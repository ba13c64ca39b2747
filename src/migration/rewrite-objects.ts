import { inPool } from "./bounded-pool";
import type { Cluster } from "./cluster";
import { identityOf, listPages } from "./list-pages";
import { resourceVersionOf, writeObject, type WriteOutcome } from "./object-writes";
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
  /** Distinct objects listed (by uid): a list that starts over lists its first pages again. */
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
  // Each object counts once, by its last outcome: listed again after a restarted list, it is
  // written again (a no-op the apiserver skips), not counted again.
  const outcomes = new Map<string, "rewritten" | "gone">();
  const record = (identity: string, outcome: WriteOutcome) => {
    const before = outcomes.get(identity);
    if (before !== undefined) counts[before]--;
    const now = outcome === "gone" ? "gone" : "rewritten";
    outcomes.set(identity, now);
    counts[now]++;
  };
  const seen = new Set<string>();
  for await (const items of listPages(cluster, state, options.pageSize, () => counts.expiredPages++)) {
    for (const item of items) seen.add(identityOf(item));
    counts.listed = seen.size;
    await inPool(items, options.concurrency, async (item) => {
      const outcome = await writeObject(cluster, state, item, noOp, options.attempts, () => counts.conflicts++);
      record(identityOf(item), outcome);
      options.progress?.(counts);
    });
  }
  return counts;
}
