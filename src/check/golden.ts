import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import { jsonDifferences } from "../compare";
import { showValue } from "../json";
import type { Failure, Result } from "../outcome";
import { convertObjects, type Registry } from "../conversion";
import { parseApiVersion, storedForm } from "../kube";
import { ManifestError, parseManifests } from "../kube/crd";

/**
 * Golden conversions: reviewed examples of one object in several versions, which the
 * converters must reproduce exactly. A case is a folder holding one file per version, named
 * for it: `golden/<anything>/<case>/v1beta1.yaml`, `…/v1beta2.yaml` (YAML or JSON). Every file
 * converted to every other file's version must equal it, as the apiserver stores it: every
 * field but the metadata it restores after conversion (all of it but labels and annotations),
 * and empty label and annotation maps the same as none.
 */
export interface GoldenCase {
  /** The case folder, relative to the golden folder. */
  name: string;
  /** By version: the file and its object. */
  files: Map<string, { file: string; object: Record<string, unknown> }>;
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
}

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** Every case under `dir`, in a stable order; a file that is not one object of its version is an error. */
export function readGoldenCases(dir: string): GoldenCase[] {
  const cases: GoldenCase[] = [];
  const walk = (folder: string) => {
    const entries = readdirSync(folder).sort();
    const files = entries.filter((entry) => EXTENSIONS.has(extname(entry)) && statSync(join(folder, entry)).isFile());
    if (files.length > 0) {
      const name = relative(dir, folder) || ".";
      const byVersion: GoldenCase["files"] = new Map();
      for (const entry of files) {
        const file = join(folder, entry);
        const shown = join(name, entry);
        const documents = parseManifests(readManifest(file, shown), shown);
        const object = documents[0];
        if (documents.length !== 1 || typeof object !== "object" || object === null || Array.isArray(object))
          throw new Error(`golden ${shown}: must hold exactly one object`);
        const version = basename(entry, extname(entry));
        const apiVersion = (object as { apiVersion?: unknown }).apiVersion;
        if (typeof apiVersion !== "string" || parseApiVersion(apiVersion)?.version !== version)
          throw new Error(
            `golden ${shown}: its apiVersion is ${JSON.stringify(apiVersion)}, not one of version ${version}`,
          );
        byVersion.set(version, { file, object: object as Record<string, unknown> });
      }
      cases.push({ name, files: byVersion });
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

export async function checkGolden(registry: Registry, dir: string): Promise<GoldenReport> {
  const cases = readGoldenCases(dir);
  const mismatches: GoldenMismatch[] = [];
  let pairs = 0;
  for (const { name, files } of cases) {
    for (const [from, source] of files) {
      for (const [to, expected] of files) {
        if (from === to) continue;
        pairs++;
        const converted = await convertGolden(registry, source.object, String(expected.object.apiVersion));
        const message = converted.ok ? goldenDifference(expected.object, converted.object) : goldenFailure(converted);
        if (message !== undefined) mismatches.push({ case: name, from, to, message });
      }
    }
  }
  return { cases: cases.length, pairs, mismatches };
}

/** The fields where `received` differs from `expected`, as the apiserver would store them; undefined if none. */
export function goldenDifference(expected: unknown, received: unknown): string | undefined {
  const differences = jsonDifferences(storedForm(expected), storedForm(received));
  if (differences.length === 0) return undefined;
  return differences
    .slice(0, 10)
    .map((d) => `${d.path}: expected ${showValue(d.baseline, 2_000)}, received ${showValue(d.candidate, 2_000)}`)
    .concat(differences.length > 10 ? [`… and ${differences.length - 10} more`] : [])
    .join("; ");
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
