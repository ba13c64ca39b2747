import { kindLabel } from "../../kube";
import type { Registry } from "../../conversion";
import { redactUrl } from "../webhook-call";
import { readCrdConfigs } from "./crd-config";
import type { Finding } from "./finding";
import { probe } from "./probe";
import type { StackUrls } from "./stack-outputs";
import { describeCounts, type StoredCounts } from "./stored-objects";
import { UsageError } from "../io";
import { staticChecks } from "./static-checks";

export interface DoctorOptions {
  /** Probe this URL instead of the CRD's. */
  url?: string;
  /** Probe a plain http URL (still an error for the apiserver). */
  allowHttp?: boolean;
  /** Reviews per ordered pair of served versions (default 3). */
  objectsPerPair?: number;
  seed?: number;
  /** Skip the live probe: the manifest and the registry only. */
  offline?: boolean;
  now?: Date;
  timeoutMs?: number;
  /** The URLs a CrdshiftWebhook stack outputs (`--stack-outputs`), to tell its alias's URL from others. */
  stackUrls?: StackUrls;
  /** Objects per kind to estimate a watch cache's fill for: `--stored N` (every CRD), or counted in a file. */
  stored?: { count: number } | { counts: StoredCounts; file: string };
}

interface CrdReport {
  crd: string;
  kind: string;
  /** The URL probed, token hidden; absent when nothing was probed. */
  probed?: string;
  findings: Finding[];
}

export interface DoctorReport {
  crds: CrdReport[];
  errors: number;
  warnings: number;
}

/** `crdshift doctor`: the CRDs in `documents` checked against the registry, then probed live. */
export async function runDoctor(
  registry: Registry,
  documents: unknown[],
  name: string,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const now = options.now ?? new Date();
  const crds: CrdReport[] = [];
  const configs = readCrdConfigs(documents, name);
  const stored = options.stored;
  if (
    stored &&
    "counts" in stored &&
    stored.counts.size > 0 &&
    !configs.some((crd) => stored.counts.has(kindLabel(crd)))
  )
    throw new UsageError(
      `${stored.file}: no ${configs.map(kindLabel).join(" or ")} objects in it (it holds ${describeCounts(stored.counts)})`,
    );
  for (const crd of configs) {
    const findings = staticChecks(crd, registry, now, options.stackUrls);
    const definition = registry.lookup(crd.group, crd.kind);
    const url = options.url ?? crd.url;
    const report: CrdReport = { crd: crd.name, kind: kindLabel(crd), findings };
    if (!options.offline && definition && url !== undefined) {
      report.probed = redactUrl(url);
      const probed = await probe(crd, definition, registry, {
        url,
        fromFlag: options.url !== undefined,
        allowHttp: options.allowHttp ?? false,
        objectsPerPair: options.objectsPerPair ?? 3,
        now,
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(stored
          ? {
              stored:
                "count" in stored
                  ? { objects: stored.count, countedFrom: "--stored" }
                  : { objects: stored.counts.get(kindLabel(crd)) ?? 0, countedFrom: `counted in ${stored.file}` },
            }
          : {}),
      });
      // The manifest may already have said it (a caBundle on a known public host).
      findings.push(...probed.filter((finding) => !findings.some((seen) => seen.code === finding.code)));
    }
    crds.push(report);
  }
  const all = crds.flatMap((report) => report.findings);
  return {
    crds,
    errors: all.filter((f) => f.severity === "error").length,
    warnings: all.filter((f) => f.severity === "warning").length,
  };
}
