import { isConversionFailure, MigrationError } from "./cluster-errors";
import type { Cluster } from "./cluster";
import type { StorageState } from "./storage-state";

const GROUP = "storagemigration.k8s.io";
const PLURAL = "storageversionmigrations";
const RESOURCE = `${PLURAL}.${GROUP}`;

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
 * resource and follows its conditions (Running, then Succeeded or Failed). The apiserver's
 * controller rewrites every object; from 1.36 it also prunes storedVersions, best effort.
 */
export async function migrateThroughApi(
  cluster: Cluster,
  state: StorageState,
  version: string,
  options: ApiMigrationOptions,
): Promise<string> {
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
            metadata: { generateName: `crdshift-${plural}-`.slice(0, 200) },
            spec: { resource: { group, resource: plural } },
          },
        },
        cluster.options(),
      ),
  )) as { metadata?: { name?: string } };
  const name = String(created.metadata?.name);
  const until = Date.now() + options.deadlineMs;
  let seen = "";
  for (;;) {
    const migration = (await cluster.call(
      { verb: "get", resource: RESOURCE, doing: `reading the StorageVersionMigration ${name}` },
      () => cluster.objects.getClusterCustomObject({ group: GROUP, version, plural: PLURAL, name }, cluster.options()),
    )) as { status?: { conditions?: Condition[] } };
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

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}
