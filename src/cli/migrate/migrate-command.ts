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
