import { kindLabel } from "../../kube";
import { sortVersions } from "../../conversion";
import { type ConversionSide, reviewRequest } from "../webhook-call";
import { type Comparison, compareVerdicts } from "../../compare";
import type { SourceObject } from "./read-objects";

export type Outcome = Comparison["outcome"];

interface ObjectDiff {
  name: string;
  origin: string;
  /** `CronTab.example.com` */
  kind: string;
  apiVersion: string;
  /** One entry per version converted to, in Kubernetes' version order. */
  versions: Array<{ to: string } & Comparison>;
}

interface SummaryRow {
  kind: string;
  to: string;
  counts: Record<Outcome, number>;
}

export interface DiffReport {
  candidate: string;
  baseline: string;
  objects: ObjectDiff[];
  skipped: string[];
  summary: SummaryRow[];
  /** Conversions that differ or fail on one side only: any makes `crdshift diff` exit 1. */
  changed: number;
}

export interface DiffSides {
  candidate: ConversionSide;
  baseline: ConversionSide;
  /** Every version of a kind, on either side. */
  versions(group: string, kind: string): string[];
}

const CONCURRENCY = 8;

/** A side that cannot be called at all: there is nothing to compare. */
export class UnreachableError extends Error {
  override name = "UnreachableError";
}

/**
 * Converts every object to every other version of its kind with both sides (each its own
 * one-object review, as the apiserver sends reads) and compares what the apiserver would keep.
 */
export async function runDiff(objects: SourceObject[], skipped: string[], sides: DiffSides): Promise<DiffReport> {
  const results: ObjectDiff[] = objects.map((source) => ({
    name: source.name,
    origin: source.origin,
    kind: kindLabel(source),
    apiVersion: `${source.group}/${source.version}`,
    versions: [],
  }));
  const jobs = objects.flatMap((source, index) =>
    sortVersions(sides.versions(source.group, source.kind))
      .filter((to) => to !== source.version)
      .map((to, slot) => ({ source, index, to, slot })),
  );
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const request = reviewRequest(`${job.source.group}/${job.to}`, [job.source.object]);
      const [baseline, candidate] = await Promise.all([
        sides.baseline.convert(request),
        sides.candidate.convert(request),
      ]);
      // No HTTP status: the call itself failed (refused, timed out, TLS), and would for every object.
      const failedCall = [baseline, candidate].find((result) => result.callFailure !== undefined && !result.verdict.ok);
      if (failedCall && !failedCall.verdict.ok) {
        next = jobs.length; // the other workers stop too
        throw new UnreachableError(failedCall.verdict.error);
      }
      results[job.index]!.versions[job.slot] = { to: job.to, ...compareVerdicts(baseline.verdict, candidate.verdict) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));
  const summary = summarize(results);
  const changed = results
    .flatMap((result) => result.versions)
    .filter((entry) => entry.outcome !== "same" && entry.outcome !== "both-failed").length;
  return {
    candidate: sides.candidate.name,
    baseline: sides.baseline.name,
    objects: results,
    skipped,
    summary,
    changed,
  };
}

function summarize(results: ObjectDiff[]): SummaryRow[] {
  const rows = new Map<string, SummaryRow>();
  for (const result of results) {
    for (const entry of result.versions) {
      const key = `${result.kind}\u0000${entry.to}`;
      let row = rows.get(key);
      if (!row) {
        const counts = { same: 0, different: 0, "baseline-failed": 0, "candidate-failed": 0, "both-failed": 0 };
        row = { kind: result.kind, to: entry.to, counts };
        rows.set(key, row);
      }
      row.counts[entry.outcome]++;
    }
  }
  return [...rows.values()].sort(
    (a, b) =>
      a.kind.localeCompare(b.kind) ||
      sortVersions([a.to, b.to]).indexOf(a.to) - sortVersions([a.to, b.to]).indexOf(b.to),
  );
}
