import { isConversionFailure, MigrationError, statusOf } from "./cluster-errors";
import type { Cluster } from "./cluster";
import type { StorageState } from "./storage-state";

const GROUP = "storagemigration.k8s.io";
const PLURAL = "storageversionmigrations";
const RESOURCE = `${PLURAL}.${GROUP}`;

/**
 * The label of every StorageVersionMigration crdshift creates, so that a later run finds one
 * still running for the same resource (its spec.resource) and follows it instead of creating another.
 */
export const MANAGED_BY = { key: "app.kubernetes.io/managed-by", value: "crdshift" } as const;

/** Reads of a migration's status in a row that may fail transiently before the run gives up. */
const READ_ATTEMPTS = 5;

/**
 * The StorageVersionMigration versions crdshift creates, newest first: GA `v1` (1.37) and beta
 * `v1beta1` (1.35), whose spec is `resource: {group, resource}`. The alpha's spec differs and its
 * controller was off by default, so an alpha-only cluster gets the no-op updates instead.
 */
const VERSIONS = ["v1", "v1beta1"];

/** The StorageVersionMigration version the cluster serves, if any. */
export async function servedMigrationApi(cluster: Cluster): Promise<string | undefined> {
  const groups = await cluster.call(
    { verb: "get", resource: "the /apis discovery endpoint", doing: "reading the API groups the cluster serves" },
    () => cluster.discovery.getAPIVersions(cluster.options()),
  );
  const served = groups.groups.find((group) => group.name === GROUP)?.versions.map((entry) => entry.version) ?? [];
  return VERSIONS.find((version) => served.includes(version));
}

export interface ApiMigrationOptions {
  /** How often the migration's conditions are read. */
  pollMs: number;
  /** How long to follow it before giving up (it goes on in the cluster). */
  deadlineMs: number;
  /** Called with each condition seen. */
  progress?: (condition: string) => void;
}

/**
 * Migrates through the apiserver's own StorageVersionMigration: creates one for the CRD's
 * resource (or takes one an earlier run left running) and follows its conditions (Running, then Succeeded or Failed). The apiserver's
 * controller rewrites every object; from 1.36 it also prunes storedVersions, best effort.
 */
export async function migrateThroughApi(
  cluster: Cluster,
  state: StorageState,
  version: string,
  options: ApiMigrationOptions,
): Promise<string> {
  const running = await runningMigration(cluster, state, version);
  if (running !== undefined)
    options.progress?.(`StorageVersionMigration ${running}: created by an earlier run, followed`);
  const name = running ?? (await createMigration(cluster, state, version));
  const until = Date.now() + options.deadlineMs;
  let seen = "";
  let failedReads = 0;
  for (;;) {
    let migration: { status?: { conditions?: Condition[] } };
    try {
      migration = (await cluster.call(
        { verb: "get", resource: RESOURCE, doing: `reading the StorageVersionMigration ${name}` },
        () =>
          cluster.objects.getClusterCustomObject({ group: GROUP, version, plural: PLURAL, name }, cluster.options()),
      )) as typeof migration;
      failedReads = 0;
    } catch (error) {
      // The migration goes on in the cluster whatever one read says: read it again, a few times.
      if (!transient(error) || ++failedReads >= READ_ATTEMPTS || Date.now() >= until) {
        if (!(error instanceof MigrationError)) throw error;
        throw new MigrationError(
          error.code,
          `${error.message}${failedReads > 1 ? ` (${failedReads} reads in a row)` : ""}; the StorageVersionMigration ${name} goes on in the cluster: run crdshift migrate again to follow it`,
          { cause: error.cause },
        );
      }
      options.progress?.(
        `StorageVersionMigration ${name}: ${error instanceof Error ? error.message : String(error)}; reading it again`,
      );
      await new Promise((resolve) => setTimeout(resolve, options.pollMs));
      continue;
    }
    const conditions = migration.status?.conditions ?? [];
    const holds = (type: string) => conditions.find((c) => c.type === type && c.status === "True");
    const failed = holds("Failed");
    if (failed) {
      const said = [failed.reason, failed.message].filter(Boolean).join(": ");
      throw new MigrationError(
        isConversionFailure(failed.message) ? "conversion-failed" : "api-error",
        `the StorageVersionMigration ${name} failed${said ? `: ${said}` : ""}; status.storedVersions is left as it is`,
      );
    }
    if (holds("Succeeded")) return name;
    const now = holds("Running") ? "Running" : "Pending";
    if (now !== seen) options.progress?.(`StorageVersionMigration ${name}: ${now}`);
    seen = now;
    if (Date.now() >= until)
      throw new MigrationError(
        "api-error",
        `the StorageVersionMigration ${name} did not finish within ${Math.round(options.deadlineMs / 1000)} s; it goes on in the cluster: kubectl get storageversionmigration ${name}, then run crdshift migrate again`,
      );
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}

async function createMigration(cluster: Cluster, state: StorageState, version: string): Promise<string> {
  const { group, plural } = state.crd;
  const created = (await cluster.call(
    {
      verb: "create",
      resource: `${RESOURCE} (or run with --no-api to write each object instead)`,
      doing: `creating a StorageVersionMigration for ${plural}.${group}`,
    },
    () =>
      cluster.objects.createClusterCustomObject(
        {
          group: GROUP,
          version,
          plural: PLURAL,
          body: {
            apiVersion: `${GROUP}/${version}`,
            kind: "StorageVersionMigration",
            metadata: {
              generateName: `crdshift-${plural}-`.slice(0, 200),
              labels: { [MANAGED_BY.key]: MANAGED_BY.value },
            },
            spec: { resource: { group, resource: plural } },
          },
        },
        cluster.options(),
      ),
  )) as { metadata?: { name?: string } };
  return String(created.metadata?.name);
}

/**
 * A StorageVersionMigration an earlier run of crdshift created for the same resource (its label,
 * its spec.resource) that has neither succeeded nor failed: it still rewrites the objects, and a
 * second one would only rewrite them again.
 */
async function runningMigration(cluster: Cluster, state: StorageState, version: string): Promise<string | undefined> {
  const { group, plural } = state.crd;
  const list = (await cluster.call(
    {
      verb: "list",
      resource: `${RESOURCE} (or run with --no-api to write each object instead)`,
      doing: `looking for a StorageVersionMigration of ${plural}.${group} still running`,
    },
    () =>
      cluster.objects.listClusterCustomObject(
        { group: GROUP, version, plural: PLURAL, labelSelector: `${MANAGED_BY.key}=${MANAGED_BY.value}` },
        cluster.options(),
      ),
  )) as {
    items?: {
      metadata?: { name?: string; creationTimestamp?: string };
      spec?: { resource?: { group?: string; resource?: string } };
      status?: { conditions?: Condition[] };
    }[];
  };
  const running = (list.items ?? []).filter((item) => {
    const resource = item.spec?.resource;
    const ended = (item.status?.conditions ?? []).some(
      (c) => (c.type === "Succeeded" || c.type === "Failed") && c.status === "True",
    );
    return resource?.group === group && resource.resource === plural && !ended && item.metadata?.name;
  });
  // The newest, should there be more than one.
  running.sort((a, b) =>
    String(b.metadata?.creationTimestamp ?? "").localeCompare(String(a.metadata?.creationTimestamp ?? "")),
  );
  return running[0]?.metadata?.name;
}

/** A failed read worth repeating: no answer at all, too many requests, or a server-side 5xx. */
function transient(error: unknown): boolean {
  if (!(error instanceof MigrationError)) return false;
  if (error.code === "unreachable") return true;
  const status = statusOf(error.cause);
  return status === 429 || (status !== undefined && status >= 500);
}

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}
