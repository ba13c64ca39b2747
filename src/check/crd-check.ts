import * as core from "zod/v4/core";
import { issueText, createRegistry, type KindDefinition, messageOf, type Registry, sortVersions } from "../conversion";
import { celRules, type Crd, readCrds } from "../kube/crd";
import { kindLabel } from "../kube";
import { kindForCrd } from "./crd-kind";
import type { RoundTripSetup, Sample, SchemaOf } from "./object-round-trip";
import { joinPath } from "../json";
import { checkPair, type PairReport } from "./pair-check";
import { crdSamples, fieldsToHandle } from "./crd-samples";
import { equivalencesOf, show } from "./round-trip-comparison";
import { type Finding, FindingError, findingsText, inOrderOfUse, RANK, withoutRepeats } from "./findings";
import { schemaField } from "./finding-field";
import { byUse, searchSamples, shrinkFound } from "./sample-search";
import { checkSeed } from "./check-seed";
import { generationProblem } from "./generation-bounds";
import { generationFinding } from "./pair-check";

export interface CrdCheckOptions {
  /**
   * Objects tried per version, and round trips per ordered pair of versions (default 100): objects
   * are generated until this many have round-tripped, refusals aside, or a pair fails for too few.
   */
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
  /** Every distinct problem found (version or pair, rule, field), each with a shrunk object, most useful first. */
  findings: Finding[];
  /** The problems in words, bounded, ending with a line that counts them; or why the CRD does not fit the registry. */
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
 * are listed in `notChecked`, with why. The check goes on after a problem: each distinct one is
 * reported, the CEL rules not checked listed too.
 */
export async function checkAgainstCrd(
  kinds: Registry | readonly KindDefinition[],
  crd: Crd,
  options: CrdCheckOptions = {},
): Promise<CrdCheckReport> {
  const registry = "lookup" in kinds ? kinds : createRegistry(kinds);
  const report: CrdCheckReport = { crd: crd.name, ok: true, versions: [], pairs: [], notChecked: [], findings: [] };
  const found = kindForCrd(registry, crd);
  if (!found.ok) return Object.assign(report, { ok: false, failure: found.problem });
  const { kind } = found;
  const listed = crd.versions.map((version) => version.name);
  const runs = options.runs ?? 100;
  const seed = checkSeed(options.seed);
  const schemaOf: SchemaOf = new Map(crd.versions.map((version) => [version.name, version.schema]));
  const versions = sortVersions(listed);
  const setup: RoundTripSetup = {
    registry,
    kind,
    equivalences: equivalencesOf(kind),
    crd: { schemaOf, asStored: true },
    celErrors: new Map(),
  };
  const findings: Finding[] = [];
  // Constraints no object meets, or none check builds, found before generating: a finding of the
  // version, whose objects are then not generated (pairs into it are still checked). A filter that
  // still finds no value (bounded-filter.ts) is one too, found where it gave up.
  const ungenerable = new Set<string>();
  for (const version of listed) {
    const problem = generationProblem(schemaOf.get(version));
    if (problem === undefined) continue;
    ungenerable.add(version);
    findings.push({
      place: version,
      rule: "cannot generate objects",
      field: "",
      message: `cannot generate objects: ${problem}`,
      object: {},
      partial: false,
      count: 1,
      rank: RANK.schema,
      seed,
    });
  }

  for (const version of versions) {
    const entry = { version, accepted: 0 };
    report.versions.push(entry);
    if (ungenerable.has(version)) continue;
    const zodSchema = kind.versions.get(version)!;
    const samples = crdSamples(crd, version, schemaOf.get(version));
    const accepts = (sample: Sample) => {
      const parsed = core.safeParse(zodSchema, sample.object);
      if (parsed.success) return;
      const issue = parsed.error.issues[0]!;
      const field = schemaField(issuePath(issue.path), schemaOf.get(version));
      throw new FindingError(
        `the ${version} schema refuses (${issue.code})`,
        field,
        RANK.schema,
        issueText(issue, sample.object, true),
      );
    };
    const searched = await searchSamples(samples, { seed, limit: runs }, (sample) => {
      accepts(sample);
      entry.accepted++;
    });
    if (searched.stopped) findings.push(generationFinding(version, searched.stopped, seed));
    for (const one of byUse(searched.found)) {
      const { value, error } = await shrinkFound(samples, seed, one, accepts);
      findings.push({
        place: version,
        rule: error instanceof FindingError ? error.rule : "error",
        field: error instanceof FindingError ? error.field : "",
        message:
          `the registry's schema refuses an object the CRD accepts${value.partial ? " (a partial object, as server-side apply sends)" : ""}: ${messageOf(error)}\n` +
          `  Every read of such an object at another version would fail. Loosen the ${version} schema.`,
        object: value.object,
        partial: value.partial,
        count: one.count,
        rank: one.rank,
        seed,
      });
    }
  }

  for (const from of versions) {
    for (const to of versions) {
      if (from === to || ungenerable.has(from)) continue;
      const checked = await checkPair(setup, crdSamples(crd, from, schemaOf.get(from)), from, to, { runs, seed });
      report.pairs.push(checked.pair);
      findings.push(...checked.findings);
    }
  }
  report.notChecked = notChecked(versions, schemaOf, setup.celErrors);
  report.findings = inOrderOfUse(withoutRepeats(findings));
  if (report.findings.length === 0) return report;
  const label = kindLabel(crd);
  // What the two versions declare differently, once per pair, with its first finding shown.
  const explained = new Set<string>();
  const text = (finding: Finding) => {
    const pair = /^(\S+) -> (\S+) -> /.exec(finding.place);
    const first = pair !== null && !explained.has(finding.place);
    if (first) explained.add(finding.place);
    const fields = first ? fieldsToHandle(pair[1]!, pair[2]!, schemaOf) : "";
    const object = Object.keys(finding.object).length > 0 ? `  object: ${show(finding.object)}\n` : "";
    return (
      `${label} ${finding.place}${finding.partial && pair !== null ? " (a partial object)" : ""}: ${finding.message}\n` +
      `${fields}${object}  (replay with --seed ${finding.seed})`
    );
  };
  return Object.assign(report, { ok: false, failure: findingsText(label, report.findings, text) });
}

/** A zod issue's path as crdshift prints field paths. */
function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === "number" ? `${at}[${key}]` : joinPath(at, String(key))), "");
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
