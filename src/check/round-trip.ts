import fc from "fast-check";
import { convertObjects, createRegistry, type KindDefinition, sortVersions } from "../conversion";
import { type Crd, firstViolation } from "../kube/crd";
import { kindLabel } from "../kube";
import { arbitraryFor } from "./arbitrary";
import { purityProblem } from "./converter-purity";
import { objectMetadata } from "./object-metadata";
import { checkCelRules } from "./cel-check";
import { declaredRefusal, judgeFailure, undeclaredRefusal } from "./refusals";
import { type Equivalences, roundTripDifference, show } from "./round-trip-comparison";

export interface PairReport {
  from: string;
  to: string;
  /** Objects that went A -> B -> A and came back equal. */
  roundTrips: number;
  /** Objects the A -> B converter refused by throwing an Error, as the kind declared it may. */
  refused: number;
  /** Objects refused that the kind's CRD (`CheckOptions.crds`) would not accept: not a finding. */
  refusedOutsideCrd: number;
  /** The first refusal's message, as kubectl users would read it after the object's name. */
  sampleRefusal?: string;
  /** Why the kind says A -> B may refuse objects (defineKind's `refusals`), when it says so. */
  declaredRefusal?: string;
  /** Differences accepted under the kind's `emptyIsAbsent`: each path and how often. */
  emptyIsAbsent: Array<{ path: string; count: number }>;
}

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
    for (const from of versions) {
      for (const to of versions) {
        if (from === to) continue;
        const declared = declaredRefusal(kind, from, to);
        const pair: PairReport = {
          from,
          to,
          roundTrips: 0,
          refused: 0,
          refusedOutsideCrd: 0,
          ...(declared !== undefined ? { declaredRefusal: declared } : {}),
          emptyIsAbsent: [],
        };
        const equivalences: Equivalences = { emptyIsAbsent: kind.emptyIsAbsent, accepted: new Map() };
        report.pairs.push(pair);
        const objects = fc
          .tuple(
            fc.oneof(
              arbitraryFor(kind.versions.get(from)!, { unknownFields: true }),
              arbitraryFor(kind.versions.get(from)!, { partial: true, unknownFields: true }),
            ),
            objectMetadata(),
          )
          .map(([fields, meta]) => ({
            ...fields,
            apiVersion: `${kind.group}/${from}`,
            kind: kind.kind,
            metadata: meta,
          }));
        const result = await fc.check(
          fc.asyncProperty(objects, async (object) => {
            // Objects the version's own schema refuses could never be stored: not a counterexample.
            fc.pre(
              (kind.versions.get(from)!["~standard"].validate(object) as { issues?: unknown }).issues === undefined,
            );
            const impure = await purityProblem(kind, object, from, to);
            if (impure) throw new Error(impure);
            const outcome = await roundTrip(registry, object, kind.group, to, equivalences);
            if (outcome === "ok") {
              pair.roundTrips++;
            } else if (declared === undefined && outsideCrd(options.crds, kind, from, object)) {
              pair.refusedOutsideCrd++;
            } else {
              if (declared === undefined)
                throw new Error(undeclaredRefusal(from, to, outcome.refused, `its ${from} schema accepts`));
              pair.refused++;
              pair.sampleRefusal ??= outcome.refused;
            }
          }),
          { numRuns: options.runs ?? 200, ...(options.seed !== undefined ? { seed: options.seed } : {}) },
        );
        pair.emptyIsAbsent = [...equivalences.accepted!].map(([path, count]) => ({ path, count }));
        if (result.failed) {
          report.ok = false;
          const error =
            result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
          report.failure = `${name} ${from} -> ${to} -> ${from}: ${error}\n  object: ${show(result.counterexample?.[0])}\n  (replay with seed ${result.seed})`;
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

async function roundTrip(
  registry: ReturnType<typeof createRegistry>,
  object: Record<string, unknown>,
  group: string,
  to: string,
  equivalences: Equivalences,
): Promise<"ok" | { refused: string }> {
  const from = String(object.apiVersion);
  const there = await convertObjects(registry, `${group}/${to}`, [object]);
  if (!there.ok) {
    const { verdict, text } = judgeFailure(there);
    if (verdict === "failed") throw new Error(`converting to ${to} failed: ${text}`);
    if (verdict === "bug") throw new Error(`converting to ${to} threw ${text}`);
    // A converter saying no, in words, is the webhook working as it should.
    return { refused: text };
  }
  const back = await convertObjects(registry, from, there.objects);
  if (!back.ok) {
    const { verdict, text } = judgeFailure(back);
    throw new Error(
      verdict === "bug"
        ? `${to} was accepted, but converting it back threw ${text}`
        : `${to} was accepted, but converting it back failed: ${text}`,
    );
  }
  const difference = roundTripDifference(object, back.objects[0], equivalences);
  if (difference) throw new Error(`not the same after the round trip: ${difference}`);
  return "ok";
}

/** Whether the kind's CRD, if known, would refuse the object at that version (required fields aside: objects may be partial). */
function outsideCrd(
  crds: readonly Crd[] | undefined,
  kind: KindDefinition,
  version: string,
  object: Record<string, unknown>,
): boolean {
  const crd = crds?.find((one) => one.group === kind.group && one.kind === kind.kind);
  const schema = crd?.versions.find((one) => one.name === version)?.schema;
  return (
    schema !== undefined &&
    (firstViolation(object, schema, "", { partial: true }) !== undefined ||
      checkCelRules(object, schema).violation !== undefined)
  );
}
