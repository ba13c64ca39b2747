import { expiredContinue, MigrationError, statusOf } from "./cluster-errors";
import type { Cluster } from "./cluster";
import type { StorageState } from "./storage-state";

/** How many times a list starts over after a 410 that offers no token to go on with. */
const RESTARTS = 3;

/**
 * Every object of the CRD, a page at a time (`limit` and `continue`), read in the version requests
 * go through (the storage version when it is served): the apiserver converts each object stored
 * in another version on the way, so a list that succeeds has proven the webhook for every stored object. A continue token that
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
      page = (await cluster.call({ verb: "list", resource, doing: `listing ${resource} in ${state.through}` }, () =>
        cluster.objects.listClusterCustomObject(
          {
            group,
            version: state.through,
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
          `listing ${resource} in ${state.through}: the continue token expired (410) ${restarts} times with no token to go on with; run crdshift migrate again, perhaps with a larger --page-size`,
          { cause: error.cause },
        );
      continue;
    }
    yield page.items ?? [];
    token = page.metadata?.continue || undefined;
    if (token === undefined) return;
  }
}

/** How many objects the CRD has, counted a page at a time, each once (by uid) when a list starts over. */
export async function countObjects(cluster: Cluster, state: StorageState, pageSize: number): Promise<number> {
  const seen = new Set<string>();
  for await (const items of listPages(cluster, state, pageSize)) for (const item of items) seen.add(identityOf(item));
  return seen.size;
}

/**
 * An object's identity across lists: its metadata.uid (a list that starts over after an expired
 * continue token lists again the objects of its first pages), else its namespace and name.
 */
export function identityOf(object: Record<string, unknown>): string {
  const metadata = (object.metadata ?? {}) as { uid?: unknown; name?: unknown; namespace?: unknown };
  if (typeof metadata.uid === "string" && metadata.uid !== "") return `uid:${metadata.uid}`;
  return `name:${String(metadata.namespace ?? "")}/${String(metadata.name)}`;
}
