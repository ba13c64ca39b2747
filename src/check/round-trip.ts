import fc from "fast-check";
import { createRegistry, type KindDefinition, type Registry, sortVersions } from "../conversion";
import type { Crd } from "../kube/crd";
import { kindLabel } from "../kube";
import { arbitraryFor } from "./arbitrary";
import { objectMetadata } from "./object-metadata";
import type { RoundTripSetup } from "./object-round-trip";
import { checkPair, type PairReport } from "./pair-check";
import { equivalencesOf, show } from "./round-trip-comparison";
import { GenerationLimit } from "./bounded-filter";

export type { PairReport } from "./pair-check";

export interface KindReport {
  kind: string;
  ok: boolean;
  pairs: PairReport[];
  /** The first defect found, shrunk to a small object, in words. */
  failure?: string;
}

export interface CheckOptions {
  /**
   * The kinds' CRDs, when known: a refusal of an object the CRD's schema would not accept (the
   * zod schemas may be looser) is counted, not failed.
   */
  crds?: readonly Crd[];
  /** Objects tried per ordered pair of versions (default 200). */
  runs?: number;
  seed?: number;
}

/**
 * Proves a kind's converters: for every ordered pair of versions A, B, objects generated from
 * A's schema (whole and partial, with labels, annotations and fields no schema names) go
 * A -> B -> A through the real engine and must come back equal (but for differences the kind
 * declared equal: `emptyIsAbsent`, each reported). Defects are: a refusal (an Error thrown) the
 * kind did not declare in `refusals`; a TypeError, ReferenceError or RangeError, or a throw of
 * something not an Error (bugs in the converter, whatever they say); a B that fails B's schema;
 * a B that cannot go back to A; anything lost or changed on the way; a converter that changes
 * its input, shares state between calls or answers differently when called again
 * (converter-purity.ts); and a pair where no object made the round trip, which proves nothing.
 */
export function checkKind(kind: KindDefinition, options: CheckOptions = {}): Promise<KindReport> {
  return checkKinds([kind], options).then((reports) => reports[0]!);
}

export async function checkKinds(kinds: readonly KindDefinition[], options: CheckOptions = {}): Promise<KindReport[]> {
  const reports: KindReport[] = [];
  for (const kind of kinds) {
    const registry = createRegistry([kind]);
    const name = kindLabel(kind);
    const versions = sortVersions([...kind.versions.keys()]);
    const report: KindReport = { kind: name, ok: true, pairs: [] };
    reports.push(report);
    const setup = zodSetup(registry, kind, options.crds);
    for (const from of versions) {
      for (const to of versions) {
        if (from === to) continue;
        const objects = fc
          .tuple(
            fc.oneof(
              arbitraryFor(kind.versions.get(from)!, { unknownFields: true }),
              arbitraryFor(kind.versions.get(from)!, { partial: true, unknownFields: true }),
            ),
            objectMetadata(),
          )
          .map(([fields, meta]) => ({
            object: { ...fields, apiVersion: `${kind.group}/${from}`, kind: kind.kind, metadata: meta },
            partial: false,
          }));
        let checked: Awaited<ReturnType<typeof checkPair>>;
        try {
          checked = await checkPair(setup, objects, from, to, {
            runs: options.runs ?? 200,
            seed: options.seed,
            // Objects the version's own schema refuses could never be stored: not a counterexample.
            admits: ({ object }) =>
              (kind.versions.get(from)!["~standard"].validate(object) as { issues?: unknown }).issues === undefined,
          });
        } catch (error) {
          // Constraints no value meets (a bounded filter gave up): a finding, not a crash.
          if (!(error instanceof GenerationLimit)) throw error;
          report.ok = false;
          report.failure = `${name} ${from}: cannot generate objects from its zod schema: ${error.path ? `${error.path}: ` : ""}${error.message}`;
          return reports;
        }
        const { pair, finding } = checked;
        report.pairs.push(pair);
        if (finding) {
          report.ok = false;
          report.failure = `${name} ${from} -> ${to} -> ${from}: ${finding.error}\n  object: ${show(finding.sample.object)}\n  (replay with seed ${finding.seed})`;
          return reports;
        }
        if (pair.roundTrips === 0) {
          report.ok = false;
          const example = pair.sampleRefusal === undefined ? "" : `, for example: ${pair.sampleRefusal}`;
          report.failure =
            `${name} ${from} -> ${to} -> ${from}: no object made the round trip (the converter refused all ${pair.refused}${example}), ` +
            `so nothing was proved; a converter should refuse only what ${to} cannot hold`;
          return reports;
        }
      }
    }
  }
  return reports;
}

/** Throws with the readable report unless every kind round-trips: for a user's own tests. */
export async function assertRoundTrips(
  kinds: KindDefinition | readonly KindDefinition[],
  options?: CheckOptions,
): Promise<void> {
  const reports = await checkKinds(Array.isArray(kinds) ? kinds : [kinds as KindDefinition], options);
  const failed = reports.find((report) => !report.ok);
  if (failed) throw new Error(failed.failure);
}

/** The round trips' setup: the kind's CRD, if known, only tells which refused inputs a cluster could hold. */
function zodSetup(registry: Registry, kind: KindDefinition, crds: readonly Crd[] | undefined): RoundTripSetup {
  const crd = crds?.find((one) => one.group === kind.group && one.kind === kind.kind);
  return {
    registry,
    kind,
    equivalences: equivalencesOf(kind),
    celErrors: new Map(),
    ...(crd ? { crd: { schemaOf: new Map(crd.versions.map((v) => [v.name, v.schema])), asStored: false } } : {}),
  };
}
