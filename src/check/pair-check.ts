import type fc from "fast-check";
import { declaredReasons } from "./refusals";
import { type RoundTripOutcome, type RoundTripSetup, roundTripObject, type Sample } from "./object-round-trip";
import { type Finding, FindingError, messageOf, RANK } from "./findings";
import { byUse, searchSamples, shrinkFound } from "./sample-search";
import type { GenerationLimit } from "./bounded-filter";

/** How one ordered pair of versions fared: what `checkKind` and `checkAgainstCrd` report per pair. */
export interface PairReport {
  from: string;
  to: string;
  /** Objects generated for the pair (those its source version's schema refuses included). */
  generated: number;
  /** Objects that went A -> B -> A and came back equal: the check's coverage. */
  roundTrips: number;
  /** The round trips asked for: objects are generated until this many round-trip (or the budget runs out). */
  wanted: number;
  /** Objects the A -> B converter refused for a reason the pair declares: all of them. */
  refused: number;
  /** The same by reason: how many, the declaration's why, and the first refusal's message. */
  refusedBy: Array<{ reason: string; why: string; count: number; example: string }>;
  /**
   * Objects the apiserver would not have stored, whose conversion was refused or failed: they break
   * the CRD's CEL rules, or (objects from the zod schemas, which may be looser) its schema. Not a finding.
   */
  refusedOutsideCrd: number;
  /** Objects that showed a finding. */
  failed: number;
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

/** Objects generated per round trip wanted, at most: past that, refusals leave too few to prove anything. */
const BUDGET = 10;

/** Findings shrunk per pair: each costs a replay; the rest keep the object that first showed them. */
const SHRUNK = 5;

/**
 * The round-trip loop, one for both checks: samples of `from` through `to` and back
 * (object-round-trip.ts), counted into the pair's report, going on after a failure until `runs`
 * objects have round-tripped or failed (at most BUDGET times as many generated). Each distinct
 * finding is reported once, its object shrunk, most useful first; a pair whose refusals leave too
 * few round trips is one too, and so is a generator that gives up (its constraints met by no
 * value: bounded-filter.ts), with what was found before it. `admits`: whether a sample may be
 * tried at all (one the source version could never hold is no counterexample); `source`: where
 * the samples come from, for that finding's words (` from its zod schema`).
 */
export async function checkPair(
  setup: RoundTripSetup,
  samples: fc.Arbitrary<Sample>,
  from: string,
  to: string,
  options: { runs: number; seed: number; admits?: (sample: Sample) => boolean; source?: string },
): Promise<{ pair: PairReport; findings: Finding[] }> {
  const declared = declaredReasons(setup.kind, from, to);
  const pair: PairReport = {
    from,
    to,
    generated: 0,
    roundTrips: 0,
    wanted: options.runs,
    refused: 0,
    refusedBy: [],
    refusedOutsideCrd: 0,
    failed: 0,
    unvalidated: 0,
    celChecked: 0,
    emptyIsAbsent: [],
    gaps: [],
    enumLosses: [],
  };
  const byReason = new Map<string, PairReport["refusedBy"][number]>();
  const accepted = new Map<string, number>();
  const acceptedGaps = new Map<string, number>();
  const acceptedLosses = new Map<string, number>();
  const count = (outcome: RoundTripOutcome) => {
    if (outcome.refusedOutsideCrd) pair.refusedOutsideCrd++;
    else if (outcome.refused !== undefined) {
      pair.refused++;
      const { reason, message } = outcome.refused;
      const entry = byReason.get(reason) ?? { reason, why: declared.get(reason)!, count: 0, example: message };
      entry.count++;
      byReason.set(reason, entry);
    } else pair.roundTrips++;
    if (outcome.unvalidated) pair.unvalidated++;
    if (outcome.celChecked) pair.celChecked++;
  };
  const tryOne = (equivalences: RoundTripSetup["equivalences"]) => async (sample: Sample) => {
    if (options.admits && !options.admits(sample)) return undefined;
    return roundTripObject({ ...setup, equivalences }, sample, from, to);
  };
  const counted = tryOne({ ...setup.equivalences, accepted, acceptedGaps, acceptedLosses });
  const { found, visited, stopped } = await searchSamples(
    samples,
    { seed: options.seed, limit: options.runs * BUDGET, enough: () => pair.roundTrips + pair.failed >= options.runs },
    async (sample) => {
      try {
        const outcome = await counted(sample);
        if (outcome) count(outcome);
      } catch (error) {
        pair.failed++;
        throw error;
      }
    },
  );
  pair.generated = visited;
  pair.refusedBy = [...byReason.values()].sort((a, b) => b.count - a.count);
  pair.emptyIsAbsent = [...accepted].map(([path, count]) => ({ path, count }));

  const why = setup.equivalences.gaps?.get(`${from}->${to}`);
  pair.gaps = [...acceptedGaps].map(([path, count]) => ({ path, count, why: why?.get(path) ?? "" }));
  pair.enumLosses = [...acceptedLosses].map(([key, count]) => {
    const [path, lost, back] = key.split("\n") as [string, string, string];
    return { path, from: lost, to: back, count };
  });

  // Replays count nothing: their own copies of what the declarations accepted.
  const replay = tryOne({
    ...setup.equivalences,
    accepted: new Map(),
    acceptedGaps: new Map(),
    acceptedLosses: new Map(),
  });
  const findings: Finding[] = [];
  for (const [i, one] of byUse(found).entries()) {
    const { value, error } = i < SHRUNK ? await shrinkFound(samples, options.seed, one, replay) : one;
    findings.push(findingOf(`${from} -> ${to} -> ${from}`, error, value, one.count, options.seed));
  }
  // Generation gave up (constraints no value meets): a finding of the source version, not a hang or a crash.
  if (stopped) findings.push(generationFinding(from, stopped, options.seed, options.source));
  // Too few round trips is a finding only where nothing else is: a failing pair has its own.
  if (findings.length === 0 && pair.roundTrips < options.runs) {
    const error = new FindingError("too few round trips", "", RANK.coverage, tooFew(pair, to));
    findings.push(findingOf(`${from} -> ${to} -> ${from}`, error, undefined, 1, options.seed));
  }
  return { pair, findings };
}

/** The finding for a version whose objects could not all be generated (bounded-filter.ts gave up). */
export function generationFinding(version: string, limit: GenerationLimit, seed: number, source = ""): Finding {
  const where = limit.path ? `${limit.path}: ` : "";
  const error = new FindingError(
    "cannot generate objects",
    limit.path ?? "",
    RANK.schema,
    `cannot generate objects${source}: ${where}${limit.message}`,
  );
  return findingOf(version, error, undefined, 1, seed);
}

function findingOf(place: string, error: unknown, sample: Sample | undefined, count: number, seed: number): Finding {
  const rule = error instanceof FindingError ? error.rule : "error";
  const field = error instanceof FindingError ? error.field : "";
  return {
    place,
    rule,
    field,
    message: messageOf(error),
    object: sample?.object ?? {},
    partial: sample?.partial ?? false,
    count,
    rank: error instanceof FindingError ? error.rank : RANK.converter,
    seed,
  };
}

function tooFew(pair: PairReport, to: string): string {
  const reasons = pair.refusedBy.map(({ reason, count }) => `${count} "${reason}"`).join(", ");
  const outside =
    pair.refusedOutsideCrd > 0 ? `, ${pair.refusedOutsideCrd} breaking their own CEL rules or CRD schema` : "";
  const example = pair.refusedBy[0] ? `, for example: ${pair.refusedBy[0].example}` : "";
  const refused = pair.refused > 0 ? ` (${reasons}${example})` : "";
  return (
    `only ${pair.roundTrips} of ${pair.wanted} objects made the round trip: of ${pair.generated} generated, ` +
    `${pair.refused} were refused as declared${refused}${outside}. Refusals leave too few round trips to prove ` +
    `the converters right; a converter should refuse only what ${to} cannot hold`
  );
}
