import { expiredContinue, MigrationError, statusOf } from "./cluster-errors";
import type { Cluster } from "./cluster";
import type { StorageState } from "./storage-state";

/** How many times a list starts over after a 410 that offers no token to go on with. */
const RESTARTS = 3;

/**
 * Every object of the CRD, a page at a time (`limit` and `continue`), read in the storage
 * version: the apiserver converts each object stored in another version on the way, so a
 * list that succeeds has proven the webhook for every stored object. A continue token that
 * outlived etcd's compaction (410 Gone) is followed by the one its Status offers (an
 * inconsistent list: anything written since is stored in the storage version already), else
 * the list starts over from its first page (never ends early: an object not listed is not
 * rewritten, and storedVersions would be pruned with it still stored in an old version);
 * `expired` counts them.
 */
export async function* listPages(
  cluster: Cluster,
  state: StorageState,
  pageSize: number,
  expired: () => void = () => {},
): AsyncGenerator<Record<string, unknown>[]> {
  const { group, plural } = state.crd;
  const resource = `${plural}.${group}`;
  let token: string | undefined;
  let restarts = 0;
  for (;;) {
    let page: { items?: Record<string, unknown>[]; metadata?: { continue?: string } };
    try {
      page = (await cluster.call({ verb: "list", resource, doing: `listing ${resource} in ${state.storage}` }, () =>
        cluster.objects.listClusterCustomObject(
          {
            group,
            version: state.storage,
            plural,
            limit: pageSize,
            ...(token !== undefined ? { _continue: token } : {}),
          },
          cluster.options(),
        ),
      )) as typeof page;
    } catch (error) {
      if (!(error instanceof MigrationError) || statusOf(error.cause) !== 410 || token === undefined) throw error;
      expired();
      token = expiredContinue(error.cause);
      if (token === undefined && ++restarts > RESTARTS)
        throw new MigrationError(
          "api-error",
          `listing ${resource} in ${state.storage}: the continue token expired (410) ${restarts} times with no token to go on with; run crdshift migrate again, perhaps with a larger --page-size`,
          { cause: error.cause },
        );
      continue;
    }
    yield page.items ?? [];
    token = page.metadata?.continue || undefined;
    if (token === undefined) return;
  }
}

/** How many objects the CRD has, counted a page at a time. */
export async function countObjects(cluster: Cluster, state: StorageState, pageSize: number): Promise<number> {
  let count = 0;
  for await (const items of listPages(cluster, state, pageSize)) count += items.length;
  return count;
}
