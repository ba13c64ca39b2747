import { MigrationError, notFoundName, statusOf } from "./cluster-errors";
import type { Cluster } from "./cluster";
import type { StorageState } from "./storage-state";

/** How one object's write ended. */
export type WriteOutcome = "written" | "unchanged" | "gone";

/**
 * One object written as a JSON merge patch at the resourceVersion it was read at: `patchFor`
 * says what to write (undefined: nothing). Written meanwhile by someone else (409), it is read
 * again and `patchFor` asked again, up to `attempts` times; deleted meanwhile (404), it is gone.
 */
export async function writeObject(
  cluster: Cluster,
  state: StorageState,
  object: Record<string, unknown>,
  patchFor: (object: Record<string, unknown>) => Record<string, unknown> | undefined,
  attempts: number,
  conflicted: () => void,
): Promise<WriteOutcome> {
  const { group, plural } = state.crd;
  const resource = `${plural}.${group}`;
  const metadata = (object.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const name = String(metadata.name);
  const namespace =
    typeof metadata.namespace === "string" && metadata.namespace !== "" ? metadata.namespace : undefined;
  const who = namespace ? `${namespace}/${name}` : name;
  const where = { group, version: state.through, plural, name };
  let current = object;
  for (let attempt = 1; ; attempt++) {
    const body = patchFor(current);
    if (body === undefined) return "unchanged";
    try {
      await cluster.call({ verb: "patch", resource, doing: `rewriting ${resource} ${who}` }, () =>
        namespace
          ? cluster.objects.patchNamespacedCustomObject({ ...where, namespace, body }, cluster.options("merge"))
          : cluster.objects.patchClusterCustomObject({ ...where, body }, cluster.options("merge")),
      );
      return "written";
    } catch (error) {
      const status = error instanceof MigrationError ? statusOf(error.cause) : undefined;
      if (status === 404 && notFound(error, name)) return "gone";
      if (status !== 409) throw error;
      if (attempt >= attempts)
        throw new MigrationError(
          "api-error",
          `${resource} ${who} was changed by someone else on each of ${attempts} attempts to write it; run crdshift migrate again`,
        );
      conflicted();
    }
    // Written since it was read: read it again, and write it at its new resourceVersion.
    try {
      current = (await cluster.call({ verb: "get", resource, doing: `reading ${resource} ${who}` }, () =>
        namespace
          ? cluster.objects.getNamespacedCustomObject({ ...where, namespace }, cluster.options())
          : cluster.objects.getClusterCustomObject(where, cluster.options()),
      )) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof MigrationError && statusOf(error.cause) === 404 && notFound(error, name)) return "gone";
      throw error;
    }
  }
}

/** The metadata.resourceVersion of an object as read. */
export function resourceVersionOf(object: Record<string, unknown>): string {
  return String((object.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion ?? "");
}

/**
 * A 404 that says this object is not found (its Status's details name it): deleted meanwhile.
 * Any other 404 (a version no longer served, a proxy's "404 page not found") is an error, not
 * an object to skip: storedVersions must not be pruned past an object that was never written.
 */
function notFound(error: unknown, name: string): boolean {
  return error instanceof MigrationError && notFoundName(error.cause) === name;
}
