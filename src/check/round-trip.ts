import fc from "fast-check";
import { createRegistry, type KindDefinition, type Registry, sortVersions } from "../conversion";
import { type Crd, pruneLikeApiserver } from "../kube/crd";
import { kindLabel } from "../kube";
import { arbitraryFor } from "./arbitrary";
import { objectMetadata } from "./object-metadata";
import type { RoundTripSetup } from "./object-round-trip";
import { checkPair, type PairReport } from "./pair-check";
import { equivalencesOf, show } from "./round-trip-comparison";
import { type Finding, findingsText, inOrderOfUse, withoutRepeats } from "./findings";
import { checkSeed } from "./check-seed";

export type { PairReport } from "./pair-check";
export type { Finding } from "./findings";

export interface KindReport {
  kind: string;
  ok: boolean;
  pairs: PairReport[];
  /** Every distinct defect found (pair, rule, field), each with a shrunk object, most useful first. */
  findings: Finding[];
  /** The findings in words, bounded, ending with a line that counts them. */
  failure?: string;
}

export interface CheckOptions {
  /**
   * The kinds' CRDs, when known: objects are pruned as the apiserver prunes them (no converter
   * sees a field the CRD drops), and a failure on an object the CRD would not accept (the zod
   * schemas may be looser) is counted, not failed.
   */
  crds?: readonly Crd[];
  /**
   * Round trips per ordered pair of versions (default 200): objects are generated until this many
   * have round-tripped, refusals aside, or a pair fails for too few.
   */
  runs?: number;
  seed?: number;
}

/**
 * Proves a kind's converters: for every ordered pair of versions A, B, objects generated from
 * A's schema (whole and partial, with labels, annotations and fields no schema names) go
 * A -> B -> A through the real engine and must come back equal (but for differences the kind
 * declared equal: `emptyIsAbsent`, each reported). Defects are: a refusal (an Error thrown) for
 * no reason the pair declares in `refusals`; a TypeError, ReferenceError or RangeError, or a throw of
 * something not an Error (bugs in the converter, whatever they say); a B that fails B's schema;
 * a B that cannot go back to A; anything lost or changed on the way; a converter that changes
 * its input, shares state between calls or answers differently when called again
 * (converter-purity.ts); and a pair where refusals leave fewer than `runs` round trips, which
 * proves too little. The check goes on after a finding: each distinct one is reported.
 */
export function checkKind(kind: KindDefinition, options: CheckOptions = {}): Promise<KindReport> {
  return checkKinds([kind], options).then((reports) => reports[0]!);
}

export async function checkKinds(kinds: readonly KindDefinition[], options: CheckOptions = {}): Promise<KindReport[]> {
  const reports: KindReport[] = [];
  const seed = checkSeed(options.seed);
  for (const kind of kinds) {
    const registry = createRegistry([kind]);
    const name = kindLabel(kind);
    const versions = sortVersions([...kind.versions.keys()]);
    const pairs: PairReport[] = [];
    const findings: Finding[] = [];
    const setup = zodSetup(registry, kind, options.crds);
    for (const from of versions) {
      for (const to of versions) {
        if (from === to) continue;
        const objects = fc
          .tuple(
            fc.oneof(
              arbitraryFor(kind.versions.get(from)!, { unknownFields: true }).map((fields) => [fields, false] as const),
              // Partial objects, as server-side apply sends: told apart, the CEL rules excuse nothing on them.
              arbitraryFor(kind.versions.get(from)!, { partial: true, unknownFields: true }).map(
                (fields) => [fields, true] as const,
              ),
            ),
            objectMetadata(),
          )
          .map(([[fields, partial], meta]) => {
            const object = { ...fields, apiVersion: `${kind.group}/${from}`, kind: kind.kind, metadata: meta };
            // Fields the CRD prunes never reach a converter: no round trip owes them.
            const schema = setup.crd?.schemaOf.get(from);
            return { object: schema ? (pruneLikeApiserver(object, schema) as typeof object) : object, partial };
          });
        // A generator that gives up (constraints no value meets) is a finding checkPair reports, not a crash.
        const checked = await checkPair(setup, objects, from, to, {
          runs: options.runs ?? 200,
          seed,
          source: " from its zod schema",
          // Objects the version's own schema refuses could never be stored: not a counterexample.
          admits: ({ object }) =>
            (kind.versions.get(from)!["~standard"].validate(object) as { issues?: unknown }).issues === undefined,
        });
        pairs.push(checked.pair);
        findings.push(...checked.findings);
      }
    }
    const ordered = inOrderOfUse(withoutRepeats(findings));
    reports.push({
      kind: name,
      ok: ordered.length === 0,
      pairs,
      findings: ordered,
      ...(ordered.length > 0 ? { failure: findingsText(name, ordered, (finding) => findingText(name, finding)) } : {}),
    });
  }
  return reports;
}

function findingText(name: string, finding: Finding): string {
  const object = Object.keys(finding.object).length > 0 ? `\n  object: ${show(finding.object)}` : "";
  return `${name} ${finding.place}: ${finding.message}${object}\n  (replay with seed ${finding.seed})`;
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
