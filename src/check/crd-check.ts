import fc from "fast-check";
import * as core from "zod/v4/core";
import { issueText, createRegistry, type KindDefinition, messageOf, type Registry, sortVersions } from "../conversion";
import { celRules, type Crd, readCrds } from "../kube/crd";
import { kindLabel } from "../kube";
import { kindForCrd } from "./crd-kind";
import type { RoundTripSetup, SchemaOf } from "./object-round-trip";
import { checkPair, type PairReport } from "./pair-check";
import { crdSamples, fieldsToHandle } from "./crd-samples";
import { equivalencesOf, show } from "./round-trip-comparison";
import { GenerationLimit } from "./bounded-filter";
import { generationProblem } from "./generation-bounds";

export interface CrdCheckOptions {
  /** Objects tried per version, and per ordered pair of versions (default 100). */
  runs?: number;
  seed?: number;
}

export interface CrdCheckReport {
  /** The CRD's name, `<plural>.<group>`. */
  crd: string;
  ok: boolean;
  /** Objects from the CRD's schema each version's zod schema accepted. */
  versions: Array<{ version: string; accepted: number }>;
  pairs: PairReport[];
  /** CEL rules results were not held to, each with its version, place and why. */
  notChecked: Array<{ version: string; path: string; rule: string; reason: string }>;
  /** The first problem, in words: which version or versions, which field, a shrunk object. */
  failure?: string;
}

/**
 * Holds a registry to the CRD it serves, with objects generated from the CRD's own
 * `openAPIV3Schema` (crd-arbitrary.ts): the kind must be served with exactly the CRD's versions;
 * every version's zod schema must accept every object the CRD accepts (whole, and partial as
 * server-side apply sends them), since a stricter schema makes stored objects unreadable; and
 * every object must survive A -> B -> A as a cluster takes it (object-round-trip.ts): each result
 * held to the target version's whole schema (types, enums, formats, patterns, bounds, required
 * fields, list uniqueness, CEL rules where they can be evaluated: cel-check.ts), a refusal only
 * where the kind declared it, nothing lost after the apiserver's pruning. CEL rules not evaluated
 * are listed in `notChecked`, with why.
 */
export async function checkAgainstCrd(
  kinds: Registry | readonly KindDefinition[],
  crd: Crd,
  options: CrdCheckOptions = {},
): Promise<CrdCheckReport> {
  // Constraints no object meets, or none check builds, are a finding, found before generating;
  // a filter that still finds no value (bounded-filter.ts) ends the check with its place.
  for (const { name, schema } of crd.versions) {
    const problem = generationProblem(schema);
    if (problem) return failedReport(crd, `${kindLabel(crd)} ${name}: cannot generate objects: ${problem}`);
  }
  try {
    return await checkGenerated(kinds, crd, options);
  } catch (error) {
    if (!(error instanceof GenerationLimit)) throw error;
    return failedReport(
      crd,
      `${kindLabel(crd)}: cannot generate objects: ${error.path ?? "the object"}: ${error.message}`,
    );
  }
}

function failedReport(crd: Crd, failure: string): CrdCheckReport {
  return { crd: crd.name, ok: false, versions: [], pairs: [], notChecked: [], failure };
}

async function checkGenerated(
  kinds: Registry | readonly KindDefinition[],
  crd: Crd,
  options: CrdCheckOptions,
): Promise<CrdCheckReport> {
  const registry = "lookup" in kinds ? kinds : createRegistry(kinds);
  const report: CrdCheckReport = { crd: crd.name, ok: true, versions: [], pairs: [], notChecked: [] };
  const fail = (failure: string) => Object.assign(report, { ok: false, failure });
  const found = kindForCrd(registry, crd);
  if (!found.ok) return fail(found.problem);
  const { kind } = found;
  const listed = crd.versions.map((version) => version.name);
  const runs = { numRuns: options.runs ?? 100, ...(options.seed !== undefined ? { seed: options.seed } : {}) };
  const schemaOf: SchemaOf = new Map(crd.versions.map((version) => [version.name, version.schema]));
  const versions = sortVersions(listed);
  const setup: RoundTripSetup = {
    registry,
    kind,
    equivalences: equivalencesOf(kind),
    crd: { schemaOf, asStored: true },
    celErrors: new Map(),
  };

  for (const version of versions) {
    const entry = { version, accepted: 0 };
    report.versions.push(entry);
    const zodSchema = kind.versions.get(version)!;
    const result = fc.check(
      fc.property(crdSamples(crd, version, schemaOf.get(version)), ({ object }) => {
        const parsed = core.safeParse(zodSchema, object);
        if (!parsed.success) throw new Error(issueText(parsed.error.issues[0]!, object, true));
        entry.accepted++;
      }),
      runs,
    );
    if (result.failed) {
      const [{ object, partial }] = result.counterexample!;
      return fail(
        `${kindLabel(crd)} ${version}: the registry's schema refuses an object the CRD accepts${partial ? " (a partial object, as server-side apply sends)" : ""}: ${errorText(result.errorInstance)}\n` +
          `  Every read of such an object at another version would fail. Loosen the ${version} schema.\n` +
          `  object: ${show(object)}\n  (replay with --seed ${result.seed})`,
      );
    }
  }

  for (const from of versions) {
    for (const to of versions) {
      if (from === to) continue;
      const { pair, finding } = await checkPair(setup, crdSamples(crd, from, schemaOf.get(from)), from, to, {
        runs: runs.numRuns,
        seed: options.seed,
      });
      report.pairs.push(pair);
      if (finding) {
        const { object, partial } = finding.sample;
        return fail(
          `${kindLabel(crd)} ${from} -> ${to} -> ${from}${partial ? " (a partial object)" : ""}: ${finding.error}\n` +
            `${fieldsToHandle(from, to, schemaOf)}  object: ${show(object)}\n  (replay with --seed ${finding.seed})`,
        );
      }
      // Every object refused, even as declared: nothing was converted, so nothing was proved.
      if (pair.roundTrips === 0) {
        return fail(
          `${kindLabel(crd)} ${from} -> ${to} -> ${from}: no object the CRD accepts made the round trip ` +
            `(${pair.refused} refused by the converter, ${pair.refusedOutsideCrd} breaking their own CEL rules), ` +
            `so nothing was proved; a converter should refuse only what ${to} cannot hold`,
        );
      }
    }
  }
  report.notChecked = notChecked(versions, schemaOf, setup.celErrors);
  return report;
}

/** Transition rules (`oldSelf`: updates only), then the rules that could not be evaluated. */
function notChecked(
  versions: readonly string[],
  schemaOf: SchemaOf,
  errors: RoundTripSetup["celErrors"],
): CrdCheckReport["notChecked"] {
  const list: CrdCheckReport["notChecked"] = [];
  for (const version of versions)
    for (const { path, rule, transition } of celRules(schemaOf.get(version)))
      if (transition)
        list.push({ version, path, rule, reason: "compares with the stored object (oldSelf): checked on updates" });
  return [...list, ...errors.values()];
}

/** Throws the report's words unless the kind fits its CRD: for a user's own tests. */
export async function assertMatchesCrd(
  kinds: KindDefinition | readonly KindDefinition[],
  crd: Crd | string,
  options?: CrdCheckOptions,
): Promise<void> {
  const crds = typeof crd === "string" ? readCrds(crd, "the CRD") : [crd];
  const list = Array.isArray(kinds) ? kinds : [kinds as KindDefinition];
  for (const one of crds) {
    const report = await checkAgainstCrd(list, one, options);
    if (!report.ok) throw new Error(report.failure);
  }
}

function errorText(error: unknown): string {
  // A schema's refinement may throw anything: read without trusting it.
  return messageOf(error);
}
