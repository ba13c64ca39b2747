import fc from "fast-check";
import { messageOf } from "../conversion";
import { declaredRefusal } from "./refusals";
import { type RoundTripSetup, roundTripObject, type Sample } from "./object-round-trip";

/** How one ordered pair of versions fared: what `checkKind` and `checkAgainstCrd` report per pair. */
export interface PairReport {
  from: string;
  to: string;
  /** Objects that went A -> B -> A and came back equal. */
  roundTrips: number;
  /** Objects the A -> B converter refused by throwing an Error, as the kind declared it may. */
  refused: number;
  /**
   * Objects refused, not declared, that the apiserver would not have stored: they break the CRD's
   * CEL rules, or (objects from the zod schemas, which may be looser) its schema. Not a finding.
   */
  refusedOutsideCrd: number;
  /** The first refusal's message, as kubectl users would read it after the object's name. */
  sampleRefusal?: string;
  /** Why the kind says A -> B may refuse objects (defineKind's `refusals`), when it says so. */
  declaredRefusal?: string;
  /**
   * Round trips whose input this check could not hold to its own CRD schema, so neither the
   * results (`checkAgainstCrd`; always 0 from `checkKind`, which holds results to the zod schemas).
   */
  unvalidated: number;
  /**
   * Round trips whose results were held to the target's CEL rules (`checkAgainstCrd`: inputs that
   * keep their own, whole objects; always 0 from `checkKind`).
   */
  celChecked: number;
  /** Differences accepted under the kind's `emptyIsAbsent`: each path and how often. */
  emptyIsAbsent: Array<{ path: string; count: number }>;
  /** Results accepted lacking what the target requires, under the kind's `gaps`: each path, how often, why. */
  gaps: Array<{ path: string; count: number; why: string }>;
  /** Enum aliases come back as the value they stand for, as mapping() declared (`back: "lose"`): each and how often. */
  enumLosses: Array<{ path: string; from: string; to: string; count: number }>;
}

/** A pair's first finding: its words, the object (shrunk) and the seed that replays it. */
export interface PairFinding {
  error: string;
  sample: Sample;
  seed: number;
}

/**
 * The round-trip loop, one for both checks: samples of `from` through `to` and back
 * (object-round-trip.ts), counted into the pair's report, until the first finding, which
 * fast-check shrinks. `admits`: whether a sample may be tried at all (one the source version
 * could never hold is no counterexample).
 */
export async function checkPair(
  setup: RoundTripSetup,
  samples: fc.Arbitrary<Sample>,
  from: string,
  to: string,
  options: { runs: number; seed?: number | undefined; admits?: (sample: Sample) => boolean },
): Promise<{ pair: PairReport; finding?: PairFinding }> {
  const declared = declaredRefusal(setup.kind, from, to);
  const pair: PairReport = {
    from,
    to,
    roundTrips: 0,
    refused: 0,
    refusedOutsideCrd: 0,
    ...(declared !== undefined ? { declaredRefusal: declared } : {}),
    unvalidated: 0,
    celChecked: 0,
    emptyIsAbsent: [],
    gaps: [],
    enumLosses: [],
  };
  const accepted = new Map<string, number>();
  const acceptedGaps = new Map<string, number>();
  const acceptedLosses = new Map<string, number>();
  const equivalences = { ...setup.equivalences, accepted, acceptedGaps, acceptedLosses };
  const result = await fc.check(
    fc.asyncProperty(samples, async (sample) => {
      if (options.admits) fc.pre(options.admits(sample));
      const outcome = await roundTripObject({ ...setup, equivalences }, sample, from, to);
      if (outcome.refusedOutsideCrd) pair.refusedOutsideCrd++;
      else if (outcome.refused !== undefined) {
        pair.refused++;
        pair.sampleRefusal ??= outcome.refused;
      } else pair.roundTrips++;
      if (outcome.unvalidated) pair.unvalidated++;
      if (outcome.celChecked) pair.celChecked++;
    }),
    { numRuns: options.runs, ...(options.seed !== undefined ? { seed: options.seed } : {}) },
  );
  pair.emptyIsAbsent = [...accepted].map(([path, count]) => ({ path, count }));
  const why = setup.equivalences.gaps?.get(`${from}->${to}`);
  pair.gaps = [...acceptedGaps].map(([path, count]) => ({ path, count, why: why?.get(path) ?? "" }));
  pair.enumLosses = [...acceptedLosses].map(([key, count]) => {
    const [path, lost, back] = key.split("\n") as [string, string, string];
    return { path, from: lost, to: back, count };
  });
  if (!result.failed) return { pair };
  // What the property threw may be a converter's own value, of any kind: read without trusting it.
  const error = messageOf(result.errorInstance);
  return { pair, finding: { error, sample: result.counterexample![0], seed: result.seed } };
}
