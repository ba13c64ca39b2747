import { MigrationError } from "./cluster-errors";
import type { Cluster } from "./cluster";
import { type ManagedFieldsCounts, pruneManagedFields } from "./managed-fields";
import { pruneStoredVersions } from "./prune-stored-versions";
import { type RewriteCounts, rewriteObjects } from "./rewrite-objects";
import { readStorageState, type StorageState } from "./storage-state";
import { migrateThroughApi, servedMigrationApi } from "./storage-version-migration";

export interface MigrateOptions {
  pageSize: number;
  concurrency: number;
  attempts: number;
  /** Use the StorageVersionMigration API when the cluster serves it (default true). */
  useApi?: boolean;
  /** The storage version the user's CRD file marks, to refuse a cluster that has not applied it. */
  expectedStorage?: string;
  /** Also remove the managedFields entries of versions no longer served. */
  pruneManagedFields?: boolean;
  apiPollMs: number;
  apiDeadlineMs: number;
  progress?: (counts: RewriteCounts) => void;
  /** A line for the person watching: the StorageVersionMigration's state. */
  note?: (line: string) => void;
}

export interface MigrateResult {
  crd: string;
  before: StorageState;
  /** How the objects were rewritten, if they were. */
  through: "nothing-to-do" | "storage-version-migration" | "no-op-updates";
  counts?: RewriteCounts;
  /** The StorageVersionMigration created (or one an earlier run left running, followed), by name. */
  migration?: string;
  /** Who left storedVersions at the storage version alone. */
  prunedBy?: "crdshift" | "apiserver";
  /** What --prune-managed-fields removed. */
  managedFields?: ManagedFieldsCounts;
}

/**
 * One CRD's migration, the docs page's procedure: every object rewritten in the storage
 * version (by the cluster's StorageVersionMigration, or a no-op update each), then
 * `status.storedVersions` pruned to the storage version. Nothing to do when storedVersions
 * already holds the storage version alone; stopping half-way and running again is safe, since
 * storedVersions is pruned only after every object was written.
 */
export async function migrateCrd(cluster: Cluster, name: string, options: MigrateOptions): Promise<MigrateResult> {
  const result = await migrateObjects(cluster, name, options);
  if (!options.pruneManagedFields) return result;
  assertServed(result.before);
  return { ...result, managedFields: await pruneManagedFields(cluster, result.before, options) };
}

async function migrateObjects(cluster: Cluster, name: string, options: MigrateOptions): Promise<MigrateResult> {
  const before = await readStorageState(cluster, name);
  assertReady(before, options.expectedStorage);
  if (before.stale.length === 0) return { crd: name, before, through: "nothing-to-do" };
  assertServed(before);
  const api = options.useApi === false ? undefined : await servedMigrationApi(cluster);
  let result: MigrateResult;
  if (api) {
    const migration = await migrateThroughApi(cluster, before, api, {
      pollMs: options.apiPollMs,
      deadlineMs: options.apiDeadlineMs,
      ...(options.note ? { progress: options.note } : {}),
    });
    result = { crd: name, before, through: "storage-version-migration", migration };
  } else {
    const counts = await rewriteObjects(cluster, before, options);
    result = { crd: name, before, through: "no-op-updates", counts };
  }
  const after = await readStorageState(cluster, name);
  if (after.storage !== before.storage)
    throw new MigrationError(
      "api-error",
      `the storage version of ${name} changed from ${before.storage} to ${after.storage} during the migration: status.storedVersions is left as it is; run crdshift migrate again`,
    );
  // Any change to the CRD's spec meanwhile (storage: true moved away and back, a version no
  // longer served) may have left objects written in another version: prune nothing.
  if (after.generation !== before.generation)
    throw new MigrationError(
      "api-error",
      `the CRD ${name} changed during the migration (metadata.generation ${before.generation} to ${after.generation}): objects written meanwhile may be stored in another version, so status.storedVersions is left as it is; run crdshift migrate again`,
    );
  if (after.stale.length === 0) return { ...result, prunedBy: "apiserver" };
  await pruneStoredVersions(cluster, after);
  return { ...result, prunedBy: "crdshift" };
}

/** A cluster whose CRD does not yet store the version the user's file marks: apply it first. */
export function assertReady(state: StorageState, expectedStorage: string | undefined): void {
  if (state.storage === "")
    throw new MigrationError("api-error", `the cluster's CRD ${state.crd.name} marks no version storage: true`);
  if (expectedStorage !== undefined && expectedStorage !== state.storage)
    throw new MigrationError(
      "not-ready",
      `the cluster's CRD ${state.crd.name} stores ${state.storage}, the file marks ${expectedStorage} storage: true: apply the file first (kubectl apply -f), then migrate`,
    );
}

/**
 * A CRD that serves no version has no endpoint to list or write its objects through (the
 * apiserver serves none for a version marked `served: false`): nothing can migrate them.
 */
export function assertServed(state: StorageState): void {
  if (state.through === "")
    throw new MigrationError(
      "api-error",
      `the cluster's CRD ${state.crd.name} serves no version (every one of ${state.crd.versions.map((version) => version.name).join(", ")} is served: false), so its objects cannot be listed or written: mark one served: true (kubectl edit crd ${state.crd.name}), then migrate`,
    );
}
