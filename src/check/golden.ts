import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import { jsonDifferences } from "../compare";
import { isJsonObject, showValue } from "../json";
import type { Failure, Result } from "../outcome";
import { convertObjects, type KindDefinition, type Registry, STASH_ANNOTATION, unstashFields } from "../conversion";
import { parseApiVersion, storedForm } from "../kube";
import { ManifestError, parseManifests } from "../kube/crd";
import { emptyAccepts, type Equivalences, equivalencesOf } from "./round-trip-comparison";

/**
 * Golden conversions: reviewed examples of one object in several versions, which the
 * converters must reproduce exactly. A case is a folder of files named for their version:
 * `golden/<anything>/<case>/v1beta1.yaml`, `…/v1beta2.yaml` (YAML or JSON), each converted to
 * every other one's version and compared. A case may also go one way, as Go's table tests do:
 * `v1beta1.input.yaml` is only converted, `v1beta2.expected.yaml` only compared with what its
 * case's other files become. Compared as the apiserver stores an object: every field but the
 * metadata it restores after conversion (all of it but labels and annotations), empty label and
 * annotation maps the same as none, an empty value the same as none where the kind declares it
 * (`emptyIsAbsent`), and, against an expected file that holds none, the crdshift.io/stash
 * annotation left out (it serves round trips, which the check holds apart).
 */
export interface GoldenCase {
  /** The case folder, relative to the golden folder. */
  name: string;
  /** By version: the files compared both ways, and their objects. */
  files: Map<string, GoldenFile>;
  /** By version: the files only converted (`<version>.input.yaml`). */
  inputs: Map<string, GoldenFile>;
  /** By version: the files only compared with (`<version>.expected.yaml`). */
  expected: Map<string, GoldenFile>;
}

export interface GoldenFile {
  file: string;
  object: Record<string, unknown>;
}

export interface GoldenMismatch {
  case: string;
  from: string;
  to: string;
  /** What went wrong, in words: the field paths with expected and received values, or the failure. */
  message: string;
}

export interface GoldenReport {
  cases: number;
  pairs: number;
  mismatches: GoldenMismatch[];
  /** Differences accepted under the kinds' `emptyIsAbsent`: each path and how often. */
  emptyIsAbsent: Array<{ path: string; count: number }>;
}

const ROLES = { "": "files", ".input": "inputs", ".expected": "expected" } as const;

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** Every case under `dir`, in a stable order; a file that is not one object of its version is an error. */
export function readGoldenCases(dir: string): GoldenCase[] {
  const cases: GoldenCase[] = [];
  const walk = (folder: string) => {
    const entries = readdirSync(folder).sort();
    const files = entries.filter((entry) => EXTENSIONS.has(extname(entry)) && statSync(join(folder, entry)).isFile());
    if (files.length > 0) {
      const name = relative(dir, folder) || ".";
      const found: GoldenCase = { name, files: new Map(), inputs: new Map(), expected: new Map() };
      for (const entry of files) {
        const file = join(folder, entry);
        const shown = join(name, entry);
        const documents = parseManifests(readManifest(file, shown), shown);
        const object = documents[0];
        if (documents.length !== 1 || typeof object !== "object" || object === null || Array.isArray(object))
          throw new Error(`golden ${shown}: must hold exactly one object`);
        const [, version, role] = /^(.*?)(\.input|\.expected)?$/.exec(basename(entry, extname(entry)))!;
        const apiVersion = (object as { apiVersion?: unknown }).apiVersion;
        if (typeof apiVersion !== "string" || parseApiVersion(apiVersion)?.version !== version)
          throw new Error(
            `golden ${shown}: its apiVersion is ${JSON.stringify(apiVersion)}, not one of version ${version}`,
          );
        const into = found[ROLES[(role ?? "") as keyof typeof ROLES]];
        if (into.has(version!))
          throw new Error(`golden ${shown}: a second ${version} file of the same kind in ${name}`);
        into.set(version!, { file, object: object as Record<string, unknown> });
      }
      for (const version of found.files.keys())
        if (found.inputs.has(version) || found.expected.has(version))
          throw new Error(
            `golden ${name}: ${version} is there both ways and one way; keep ${version}.yaml, or its .input or .expected file`,
          );
      cases.push(found);
    }
    for (const entry of entries) if (statSync(join(folder, entry)).isDirectory()) walk(join(folder, entry));
  };
  if (existsSync(dir)) walk(dir);
  return cases;
}

/** What converting `object` to `apiVersion` gives, or the failure. */
export async function convertGolden(
  registry: Registry,
  object: Record<string, unknown>,
  apiVersion: string,
): Promise<Result<{ object: Record<string, unknown> }, Failure>> {
  const result = await convertObjects(registry, apiVersion, [object]);
  return result.ok
    ? { ok: true, object: result.objects[0] as Record<string, unknown> }
    : { ok: false, cause: result.cause, code: result.code, message: result.message };
}

/** A failed golden conversion in words: a converter's refusal is said to be one, anything else a failure. */
export function goldenFailure(failure: Failure): string {
  return `${failure.code === "converter-threw" ? "refused" : "failed"}: ${failure.message}`;
}

/** Every conversion a case asks for: each file converted to each other file's version. */
export function goldenPairs(golden: GoldenCase): Array<{ source: GoldenFile; target: GoldenFile; oneWay: boolean }> {
  const sources = [...golden.files, ...golden.inputs];
  const targets = [
    ...[...golden.files].map(([version, file]) => [version, file, false] as const),
    ...[...golden.expected].map(([version, file]) => [version, file, true] as const),
  ];
  return sources.flatMap(([from, source]) =>
    targets.filter(([to]) => to !== from).map(([, target, oneWay]) => ({ source, target, oneWay })),
  );
}

export async function checkGolden(registry: Registry, dir: string): Promise<GoldenReport> {
  const cases = readGoldenCases(dir);
  const mismatches: GoldenMismatch[] = [];
  const accepted = new Map<string, number>();
  let pairs = 0;
  for (const golden of cases) {
    for (const { source, target, oneWay } of goldenPairs(golden)) {
      pairs++;
      const [from, to] = [versionOf(source.object), versionOf(target.object)];
      const converted = await convertGolden(registry, source.object, String(target.object.apiVersion));
      const equivalences = { ...equivalencesOf(kindOf(registry, target.object)), accepted };
      const message = converted.ok
        ? goldenDifference(target.object, converted.object, { equivalences, oneWay })
        : goldenFailure(converted);
      if (message !== undefined) mismatches.push({ case: golden.name, from, to, message });
    }
  }
  const emptyIsAbsent = [...accepted].map(([path, count]) => ({ path, count }));
  return { cases: cases.length, pairs, mismatches, emptyIsAbsent };
}

/**
 * The fields where `received` differs from `expected`, as the apiserver would store them; undefined if none.
 * `equivalences`: what the kind declared the same; `oneWay`: `expected` is an expected file, whose
 * stash annotation, if it has none, is not compared.
 */
export function goldenDifference(
  expected: unknown,
  received: unknown,
  options: { equivalences?: Equivalences; oneWay?: boolean } = {},
): string | undefined {
  const compared = options.oneWay && !hasStash(expected) ? withoutStash(received) : received;
  const differences = jsonDifferences(storedForm(expected), storedForm(compared), {
    ...(options.equivalences ? { accepts: emptyAccepts(options.equivalences) } : {}),
  });
  if (differences.length === 0) return undefined;
  return differences
    .slice(0, 10)
    .map((d) => `${d.path}: expected ${showValue(d.baseline, 2_000)}, received ${showValue(d.candidate, 2_000)}`)
    .concat(differences.length > 10 ? [`… and ${differences.length - 10} more`] : [])
    .join("; ");
}

function versionOf(object: Record<string, unknown>): string {
  return parseApiVersion(String(object.apiVersion))?.version ?? String(object.apiVersion);
}

function kindOf(registry: Registry, object: Record<string, unknown>): KindDefinition | undefined {
  const group = parseApiVersion(String(object.apiVersion))?.group;
  return group ? registry.lookup(group, String(object.kind)) : undefined;
}

function hasStash(object: unknown): boolean {
  const annotations = (object as { metadata?: { annotations?: unknown } }).metadata?.annotations;
  return isJsonObject(annotations) && Object.hasOwn(annotations, STASH_ANNOTATION);
}

function withoutStash(object: unknown): unknown {
  return isJsonObject(object) ? unstashFields(object).object : object;
}

export function formatMismatch(mismatch: GoldenMismatch): string {
  return `golden ${mismatch.case}: ${mismatch.from} -> ${mismatch.to}: ${mismatch.message}`;
}

/**
 * crdshift/testing: every golden case under `dir` (default `golden`, from the working folder)
 * converted between all its versions; throws naming each case, pair and field that differs.
 */
export async function assertGolden(registry: Registry, dir = "golden"): Promise<void> {
  const report = await checkGolden(registry, dir);
  if (report.cases === 0) throw new Error(`no golden cases under ${dir}: add <case>/<version>.yaml files there`);
  if (report.mismatches.length > 0) throw new Error(report.mismatches.map(formatMismatch).join("\n"));
}

/** A golden file's text; one that cannot be read names itself as the golden file it is. */
function readManifest(file: string, shown: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new ManifestError(`cannot read ${shown}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
