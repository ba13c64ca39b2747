import type { ApiserverStandIn } from "./apiserver-stand-in";
import { StatusError } from "./stored-objects";

interface Condition {
  type: "Running" | "Succeeded" | "Failed";
  status: "True" | "False";
  reason?: string;
  message?: string;
  lastUpdateTime: string;
}

interface Migration {
  apiVersion: string;
  kind: "StorageVersionMigration";
  metadata: { name: string; resourceVersion: string; labels?: Record<string, string>; creationTimestamp: string };
  spec: { resource: { group: string; resource: string } };
  status: { conditions?: Condition[] };
}

/**
 * StorageVersionMigrations and the apiserver's controller behind them: a created one runs
 * (Running), rewrites every object of its resource in the storage version, and ends Succeeded
 * or Failed, then (from 1.36, when the stand-in is told so) prunes storedVersions itself unless
 * the CRD's generation changed meanwhile.
 */
export class StorageMigrations {
  readonly created = new Map<string, Migration>();
  private count = 0;

  constructor(private readonly apiserver: ApiserverStandIn) {}

  create(body: Record<string, unknown>, version: string): Migration {
    const metadata = (body.metadata ?? {}) as {
      name?: string;
      generateName?: string;
      labels?: Record<string, string>;
    };
    const spec = body.spec as Migration["spec"] | undefined;
    if (!spec?.resource?.resource) throw new StatusError(422, "Invalid", "spec.resource.resource: Required value");
    const name = metadata.name ?? `${metadata.generateName ?? ""}${(++this.count).toString(36).padStart(5, "x")}`;
    const migration: Migration = {
      apiVersion: `storagemigration.k8s.io/${version}`,
      kind: "StorageVersionMigration",
      metadata: {
        name,
        resourceVersion: "1",
        creationTimestamp: new Date().toISOString(),
        ...(metadata.labels ? { labels: metadata.labels } : {}),
      },
      spec,
      status: {},
    };
    this.created.set(name, migration);
    setImmediate(() => void this.run(migration));
    return migration;
  }

  get(name: string): Migration {
    const migration = this.created.get(name);
    if (!migration) throw new StatusError(404, "NotFound", `storageversionmigrations "${name}" not found`);
    return migration;
  }

  /** The list, by a label selector of `key=value` terms only (all crdshift sends). */
  list(version: string, selector: string | null): unknown {
    const terms = (selector ?? "")
      .split(",")
      .filter(Boolean)
      .map((term) => term.split("=") as [string, string]);
    const items = [...this.created.values()].filter((migration) =>
      terms.every(([key, value]) => migration.metadata.labels?.[key] === value),
    );
    return {
      apiVersion: `storagemigration.k8s.io/${version}`,
      kind: "StorageVersionMigrationList",
      metadata: { resourceVersion: "1" },
      items,
    };
  }

  private async run(migration: Migration): Promise<void> {
    const { apiserver } = this;
    const generation = (apiserver.crd.metadata as { generation: number }).generation;
    const set = (type: Condition["type"], reason?: string, message?: string) => {
      migration.status.conditions = [
        ...(migration.status.conditions ?? []).filter((condition) => condition.type !== "Running"),
        {
          type,
          status: "True",
          ...(reason ? { reason } : {}),
          ...(message ? { message } : {}),
          lastUpdateTime: new Date().toISOString(),
        },
      ];
    };
    set("Running");
    await apiserver.hooks.holdMigrations;
    const storage = apiserver.storageVersion();
    for (const key of apiserver.store.keys()) {
      try {
        await apiserver.store.patch(key, storage, {});
      } catch (error) {
        if (error instanceof StatusError && error.code === 404) continue;
        set("Failed", "MigrationFailed", `migration encountered unhandled error: ${(error as Error).message}`);
        return;
      }
    }
    set("Succeeded");
    const unchanged = (apiserver.crd.metadata as { generation: number }).generation === generation;
    if (apiserver.prunes && unchanged) apiserver.setStoredVersions([storage]);
  }
}
