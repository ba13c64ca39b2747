import { MigrationError, statusOf } from "./cluster-errors";
import { listPages } from "./list-pages";
import type { Cluster } from "./cluster";
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
  /** Lists restarted or continued after their continue token expired (410 Gone). */
  expiredPages: number;
}

interface ObjectRef {
  namespace?: string;
  name: string;
  resourceVersion: string;
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
  const resource = `${state.crd.plural}.${state.crd.group}`;
  for await (const items of listPages(cluster, state, options.pageSize, () => counts.expiredPages++)) {
    const refs = items.map(refOf);
    counts.listed += refs.length;
    await inPool(refs, options.concurrency, async (ref) => {
      const outcome = await rewriteOne(cluster, state, resource, ref, options.attempts, counts);
      if (outcome === "gone") counts.gone++;
      else counts.rewritten++;
      options.progress?.(counts);
    });
  }
  return counts;
}

async function rewriteOne(
  cluster: Cluster,
  state: StorageState,
  resource: string,
  first: ObjectRef,
  attempts: number,
  counts: RewriteCounts,
): Promise<"rewritten" | "gone"> {
  const { group, plural } = state.crd;
  const who = first.namespace ? `${first.namespace}/${first.name}` : first.name;
  const where = { group, version: state.storage, plural, name: first.name };
  let ref = first;
  for (let attempt = 1; ; attempt++) {
    try {
      await cluster.call({ verb: "patch", resource, doing: `rewriting ${resource} ${who}` }, () => {
        const body = { metadata: { resourceVersion: ref.resourceVersion } };
        return first.namespace
          ? cluster.objects.patchNamespacedCustomObject(
              { ...where, namespace: first.namespace, body },
              cluster.options("merge"),
            )
          : cluster.objects.patchClusterCustomObject({ ...where, body }, cluster.options("merge"));
      });
      return "rewritten";
    } catch (error) {
      const status = error instanceof MigrationError ? statusOf(error.cause) : undefined;
      if (status === 404) return "gone";
      if (status !== 409) throw error;
      if (attempt >= attempts)
        throw new MigrationError(
          "api-error",
          `${resource} ${who} was changed by someone else on each of ${attempts} attempts to rewrite it; run crdshift migrate again`,
        );
      counts.conflicts++;
    }
    // Written since it was listed: read it again, then write it at its new resourceVersion.
    try {
      const fresh = (await cluster.call({ verb: "get", resource, doing: `reading ${resource} ${who}` }, () =>
        first.namespace
          ? cluster.objects.getNamespacedCustomObject({ ...where, namespace: first.namespace }, cluster.options())
          : cluster.objects.getClusterCustomObject(where, cluster.options()),
      )) as Record<string, unknown>;
      ref = refOf(fresh);
    } catch (error) {
      if (error instanceof MigrationError && statusOf(error.cause) === 404) return "gone";
      throw error;
    }
  }
}

function refOf(item: Record<string, unknown>): ObjectRef {
  const metadata = (item.metadata ?? {}) as { name?: unknown; namespace?: unknown; resourceVersion?: unknown };
  return {
    name: String(metadata.name),
    ...(typeof metadata.namespace === "string" && metadata.namespace !== "" ? { namespace: metadata.namespace } : {}),
    resourceVersion: String(metadata.resourceVersion ?? ""),
  };
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure stops new work and is thrown. */
async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const rejected = results.find((result) => result.status === "rejected");
  if (rejected) throw (rejected as PromiseRejectedResult).reason;
}
