/** `crdshift migrate`'s usage and options: read by every command's argument parsing and help, so kept apart from the command, which loads the cluster client. */
export const MIGRATE_HELP = `Usage: crdshift migrate [plan] (-f CRD.yaml | NAME... | --all) [--dry-run]
                        [--kubeconfig FILE] [--context NAME] [--no-api] [--page-size N]
                        [--concurrency N] [--timeout SECONDS] [--prune-managed-fields]
                        [--allow-http]

Moves every stored object of a CRD to its storage version, then removes the other versions
from status.storedVersions, so that an old version can stop being served and be removed
(docs/migrate.md). Where the cluster serves the StorageVersionMigration API
(storagemigration.k8s.io v1 or v1beta1) it creates one and follows it; otherwise it writes
each object once, unchanged (a merge patch of its resourceVersion), a page at a time, retrying
conflicts and skipping objects deleted meanwhile. status.storedVersions is pruned only after
every object was written; a failed conversion stops it, naming the object, and leaves
storedVersions as it is. Safe to stop and run again: a CRD already migrated is left alone.

plan (or --dry-run) writes nothing: per CRD its storage version, storedVersions, how many
objects (each read in the storage version, so the webhook has converted every stored one), the
path it would take, what to do first, and what doctor says of its webhook when a registry is
found. Exit 0 done, 1 a conversion failed (or plan found something to do first), 2 bad usage,
a cluster it cannot reach, a missing permission or another refusal.

  -f, --file FILE         the CRDs to migrate (each read again from the cluster by name); a
                          storage version the cluster has not applied yet is refused
      NAME...             CRDs by name (crontabs.example.com)
      --all               every CRD of the cluster with more than one stored version
      --dry-run           the same as plan
      --kubeconfig FILE   default: $KUBECONFIG, ~/.kube/config, else the in-cluster account
      --context NAME      a context of the kubeconfig (default: its current context)
      --no-api            no-op updates even where the StorageVersionMigration API is served
      --page-size N       objects per list page (default 500, at most 10000)
      --concurrency N     writes in flight (default 4, at most 64)
      --timeout SECONDS   how long to follow a StorageVersionMigration (default 600)
      --prune-managed-fields
                          then remove the managedFields entries of versions no longer served
                          (server-side apply fails on an object that keeps one), as Cluster
                          API does; needs "list" and "patch" on the resource
      --allow-http        plan: let doctor probe a plain http webhook URL (a local server)
`;

export const MIGRATE_OPTIONS = {
  file: { type: "string", short: "f" },
  all: { type: "boolean" },
  "dry-run": { type: "boolean" },
  kubeconfig: { type: "string" },
  context: { type: "string" },
  "no-api": { type: "boolean" },
  "page-size": { type: "string" },
  concurrency: { type: "string" },
  timeout: { type: "string" },
  "prune-managed-fields": { type: "boolean" },
  "allow-http": { type: "boolean" },
} as const;
