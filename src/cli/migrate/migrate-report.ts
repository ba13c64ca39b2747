import type { MigrateResult, StorageState } from "../../migration";

/** What `migrate plan` found for one CRD. */
export interface CrdPlan {
  state: StorageState;
  /** Objects listed in the storage version; undefined when the list failed. */
  objects?: number;
  /** The StorageVersionMigration version the cluster serves, if any. */
  migrationApi?: string;
  /** Why it cannot be migrated now, and what to do first. */
  blockers: string[];
  /** What doctor says of the CRD and its webhook, one line each; empty when not run. */
  webhook: string[];
}

/** The plan for one CRD, for a person. */
export function formatPlan(plan: CrdPlan): string {
  const { state } = plan;
  const lines = [
    `${state.crd.name} (${state.crd.kind})`,
    `  storage version:  ${state.storage} (storage: true)`,
    `  storedVersions:   ${state.storedVersions.join(", ") || "(none)"}`,
  ];
  if (state.through !== state.storage)
    lines.push(
      `  requests through: ${state.through} (${state.storage} is served: false; the apiserver stores every write in ${state.storage} whatever version it came through)`,
    );
  if (plan.objects !== undefined)
    lines.push(
      `  objects:          ${plan.objects}, each read in ${state.through} (the apiserver converted those stored in another version through the webhook)`,
    );
  lines.push(...plan.webhook.map((line) => `  webhook:          ${line}`));
  if (plan.blockers.length > 0) {
    lines.push(...plan.blockers.map((blocker) => `  first:            ${blocker}`));
  } else if (state.stale.length === 0) {
    lines.push(`  nothing to do:    every object is stored in ${state.storage}`);
  } else {
    const how = plan.migrationApi
      ? `create a StorageVersionMigration (storagemigration.k8s.io/${plan.migrationApi}) and follow it`
      : `rewrite ${plan.objects ?? "every"} object${plan.objects === 1 ? "" : "s"} with a no-op update each (the cluster serves no StorageVersionMigration API)`;
    lines.push(`  will:             ${how},`);
    lines.push(
      `                    then set status.storedVersions to [${state.storage}] (dropping ${state.stale.join(", ")})`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** What a migration did, in one line. */
export function formatResult(result: MigrateResult): string {
  const name = result.crd;
  const fields = result.managedFields
    ? `; managedFields of versions no longer served: ${result.managedFields.entries} entr${result.managedFields.entries === 1 ? "y" : "ies"} removed from ${result.managedFields.objects} object${result.managedFields.objects === 1 ? "" : "s"}`
    : "";
  if (result.through === "nothing-to-do")
    return `${name}: nothing to do, status.storedVersions is [${result.before.storage}]${fields}\n`;
  const how =
    result.through === "storage-version-migration"
      ? `the StorageVersionMigration ${result.migration} succeeded`
      : summary(result);
  const pruned =
    result.prunedBy === "apiserver"
      ? `the apiserver already set status.storedVersions to [${result.before.storage}]`
      : `status.storedVersions set to [${result.before.storage}] (was ${result.before.storedVersions.join(", ")})`;
  return `${name}: ${how}; ${pruned}${fields}\n`;
}

function summary(result: MigrateResult): string {
  const counts = result.counts!;
  const { storage, through } = result.before;
  const via = through !== storage ? ` (through ${through}, ${storage} being served: false)` : "";
  const parts = [`${counts.rewritten} of ${counts.listed} objects rewritten in ${storage}${via}`];
  if (counts.gone > 0) parts.push(`${counts.gone} deleted meanwhile`);
  if (counts.conflicts > 0) parts.push(`${counts.conflicts} conflicts retried`);
  if (counts.expiredPages > 0) parts.push(`${counts.expiredPages} expired list pages continued`);
  return parts.join(", ");
}
