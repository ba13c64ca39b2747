import { crdsIn } from "../../kube/crd";
import type { Registry } from "../../conversion";
import {
  type Cluster,
  connectCluster,
  MigrationError,
  migrateCrd,
  type MigrateResult,
  crdsToMigrate,
} from "../../migration";
import { parseDocuments, positive, readInput, UsageError } from "../io";
import { terminalText } from "../terminal-text";
import { formatPlan, formatResult } from "./migrate-report";
import { planCrd } from "./migrate-plan";
import { progressLine } from "./progress-line";

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

interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  stdin: () => string;
  tty?: boolean;
}

/** How many times an object is written again after others changed it (409) before giving up. */
const ATTEMPTS = 5;
const API_POLL_MS = 1_000;
/**
 * Writes in flight at once, and objects per list page, at most: the apiserver converts each
 * page's objects through the webhook one call at a time within its 60 s, and every write in
 * flight is a conversion on the cluster's own apiserver and webhook.
 */
const MAX_CONCURRENCY = 64;
const MAX_PAGE_SIZE = 10_000;

function atMost(max: number, value: unknown, flag: string): number {
  const n = positive(String(value), flag);
  if (n > max) throw new UsageError(`${flag} must be at most ${max}`);
  return n;
}

export async function migrateCommand(
  values: Record<string, unknown>,
  positionals: string[],
  registry: () => Promise<Registry>,
  io: Io,
): Promise<number> {
  const planOnly = positionals[0] === "plan" || values["dry-run"] === true;
  const names = positionals[0] === "plan" ? positionals.slice(1) : positionals;
  const file = values.file as string | undefined;
  const given = [file !== undefined, names.length > 0, values.all === true].filter(Boolean).length;
  if (given !== 1) throw new UsageError("name the CRDs: -f CRD.yaml, their names, or --all (one of the three)");
  const options = {
    pageSize: values["page-size"] === undefined ? 500 : atMost(MAX_PAGE_SIZE, values["page-size"], "--page-size"),
    concurrency: values.concurrency === undefined ? 4 : atMost(MAX_CONCURRENCY, values.concurrency, "--concurrency"),
    attempts: ATTEMPTS,
    useApi: values["no-api"] !== true,
    pruneManagedFields: values["prune-managed-fields"] === true,
    apiPollMs: API_POLL_MS,
    apiDeadlineMs: (values.timeout === undefined ? 600 : positive(String(values.timeout), "--timeout")) * 1000,
  };
  // The CRDs a file names, with the storage version it marks: the cluster must have applied it.
  const wanted: { name: string; storage?: string }[] =
    file !== undefined
      ? crdsIn(parseDocuments(readInput(file, io.stdin), file === "-" ? "stdin" : file), file).map((crd) => ({
          name: crd.name,
          ...(crd.versions.some((v) => v.storage) ? { storage: crd.versions.find((v) => v.storage)!.name } : {}),
        }))
      : names.map((name) => ({ name }));
  if (file !== undefined && wanted.length === 0) throw new UsageError(`${file}: no CustomResourceDefinition in it`);
  const results: MigrateResult[] = [];
  try {
    const cluster = connectCluster({
      ...(typeof values.kubeconfig === "string" ? { kubeconfig: values.kubeconfig } : {}),
      ...(typeof values.context === "string" ? { context: values.context } : {}),
    });
    const crds: { name: string; storage?: string }[] =
      values.all === true ? (await crdsToMigrate(cluster)).map((name) => ({ name })) : wanted;
    if (values.all === true && crds.length === 0)
      io.out("every CRD of the cluster stores one version: nothing to do\n");
    if (planOnly) return await plan(cluster, crds, options, registry, values["allow-http"] === true, io);
    for (const crd of crds) {
      const progress = progressLine(io.err, io.tty === true, crd.name);
      try {
        results.push(
          await migrateCrd(cluster, crd.name, {
            ...options,
            ...(crd.storage !== undefined ? { expectedStorage: crd.storage } : {}),
            progress: progress.update,
            note: (line) => io.err(`${terminalText(line)}\n`),
          }),
        );
      } finally {
        progress.end();
      }
      io.out(terminalText(formatResult(results.at(-1)!).trimEnd()) + "\n");
    }
    return 0;
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    io.err(`crdshift migrate: ${terminalText(error.message)}\n`);
    return error.code === "conversion-failed" ? 1 : 2;
  }
}

async function plan(
  cluster: Cluster,
  crds: { name: string; storage?: string }[],
  options: { pageSize: number; useApi: boolean },
  registry: () => Promise<Registry>,
  allowHttp: boolean,
  io: Io,
): Promise<number> {
  let blocked = false;
  for (const crd of crds) {
    const found = await planCrd(cluster, crd.name, { ...options, expectedStorage: crd.storage, registry, allowHttp });
    blocked ||= found.blockers.length > 0;
    io.out(
      formatPlan(found)
        .split("\n")
        .map((line) => terminalText(line))
        .join("\n"),
    );
  }
  return blocked ? 1 : 0;
}
