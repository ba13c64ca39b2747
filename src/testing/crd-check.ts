import fc from "fast-check";
import * as core from "zod/v4/core";
import { convertObjects } from "../engine/convert-batch";
import { type Crd, readCrds } from "../openapi/crd-document";
import { joinPath } from "../openapi/field-path";
import { pruneLikeApiserver } from "../openapi/prune";
import { diffSchemas } from "../openapi/schema-diff";
import { kindLabel } from "../protocol/api-version";
import { createRegistry, type KindDefinition, type Registry, sortVersions } from "../registry";
import { crdObjectArbitrary } from "./crd-arbitrary";
import { kindForCrd } from "./crd-kind";
import { objectMetadata } from "./object-metadata";
import { roundTripDifference, show } from "./round-trip-comparison";

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
  pairs: Array<{ from: string; to: string; roundTrips: number; refused: number }>;
  /** The first problem, in words: which version or versions, which field, a shrunk object. */
  failure?: string;
}

/**
 * Holds a registry to the CRD it serves, with objects generated from the CRD's own
 * `openAPIV3Schema` (crd-arbitrary.ts): the kind must be served with exactly the CRD's versions;
 * every version's zod schema must accept every object the CRD accepts (whole, and partial as
 * server-side apply sends them), since a stricter schema makes stored objects unreadable; and
 * every object must survive A -> B -> A through the engine with the apiserver's pruning after
 * each step, so a field the target version does not declare, and a converter did not carry over,
 * is reported as lost. A converter that refuses an object with a message is counted, not failed.
 */
export async function checkAgainstCrd(
  kinds: Registry | readonly KindDefinition[],
  crd: Crd,
  options: CrdCheckOptions = {},
): Promise<CrdCheckReport> {
  const registry = "lookup" in kinds ? kinds : createRegistry(kinds);
  const report: CrdCheckReport = { crd: crd.name, ok: true, versions: [], pairs: [] };
  const fail = (failure: string) => Object.assign(report, { ok: false, failure });
  const found = kindForCrd(registry, crd);
  if ("problem" in found) return fail(found.problem);
  const { kind } = found;
  const listed = crd.versions.map((version) => version.name);
  const runs = { numRuns: options.runs ?? 100, ...(options.seed !== undefined ? { seed: options.seed } : {}) };
  const schemaOf = new Map(crd.versions.map((version) => [version.name, version.schema]));
  const versions = sortVersions(listed);

  for (const version of versions) {
    const entry = { version, accepted: 0 };
    report.versions.push(entry);
    const zodSchema = kind.versions.get(version)!;
    const result = fc.check(
      fc.property(objects(crd, version, schemaOf.get(version)), ({ object }) => {
        const parsed = core.safeParse(zodSchema, object);
        if (!parsed.success) throw new Error(issueText(parsed.error.issues[0]!, object));
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
      const pair = { from, to, roundTrips: 0, refused: 0 };
      report.pairs.push(pair);
      const result = await fc.check(
        fc.asyncProperty(objects(crd, from, schemaOf.get(from)), async ({ object }) => {
          const outcome = await roundTrip(registry, crd, object, from, to, schemaOf);
          if (outcome === "refused") pair.refused++;
          else pair.roundTrips++;
        }),
        runs,
      );
      if (result.failed) {
        const [{ object, partial }] = result.counterexample!;
        return fail(
          `${kindLabel(crd)} ${from} -> ${to} -> ${from}${partial ? " (a partial object)" : ""}: ${errorText(result.errorInstance)}\n` +
            `${fieldsToHandle(from, to, schemaOf)}  object: ${show(object)}\n  (replay with --seed ${result.seed})`,
        );
      }
    }
  }
  return report;
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

interface Sample {
  object: Record<string, unknown>;
  partial: boolean;
}

function objects(crd: Crd, version: string, schema: Crd["versions"][number]["schema"]): fc.Arbitrary<Sample> {
  const envelope = (body: Record<string, unknown>, meta: Record<string, unknown> | undefined) => {
    const object: Record<string, unknown> = { apiVersion: `${crd.group}/${version}`, kind: crd.kind };
    if (meta) object.metadata = meta;
    for (const key of Object.keys(body))
      Object.defineProperty(object, key, { value: body[key], enumerable: true, writable: true, configurable: true });
    return object;
  };
  const whole = fc
    .tuple(crdObjectArbitrary(schema), objectMetadata())
    .map(([body, meta]): Sample => ({ object: envelope(body, meta), partial: false }));
  // Server-side apply's partial objects: any field may be missing, metadata too (kubernetes#117356).
  const partial = fc
    .tuple(
      crdObjectArbitrary(schema, { partial: true }),
      fc.option(objectMetadata({ partial: true }), { nil: undefined }),
    )
    .map(([body, meta]): Sample => ({ object: envelope(body, meta), partial: true }));
  return fc.oneof({ weight: 3, arbitrary: whole }, { weight: 1, arbitrary: partial });
}

type SchemaOf = Map<string, Crd["versions"][number]["schema"]>;

async function roundTrip(
  registry: Registry,
  crd: Crd,
  object: Record<string, unknown>,
  from: string,
  to: string,
  schemaOf: SchemaOf,
): Promise<"ok" | "refused"> {
  const there = await convertObjects(registry, `${crd.group}/${to}`, [object]);
  if (!there.ok) {
    // A converter saying no, in words, is the webhook working; a result its own version's schema
    // refuses is a defect.
    if (there.cause === "converter-error" && !/the converter('s result does not match| returned)/.test(there.message))
      return "refused";
    throw new Error(`converting to ${to} failed: ${there.message}`);
  }
  const stored = pruneLikeApiserver(there.objects[0], schemaOf.get(to));
  const back = await convertObjects(registry, `${crd.group}/${from}`, [stored]);
  if (!back.ok)
    throw new Error(`the ${to} object (as the apiserver keeps it) could not be converted back: ${back.message}`);
  const difference = roundTripDifference(object, pruneLikeApiserver(back.objects[0], schemaOf.get(from)));
  if (difference) throw new Error(`not the same after the round trip: ${difference}`);
  return "ok";
}

function fieldsToHandle(from: string, to: string, schemaOf: SchemaOf): string {
  const diff = diffSchemas(schemaOf.get(from), schemaOf.get(to));
  const lines = [
    diff.onlyA.length > 0
      ? `  only ${from} has ${diff.onlyA.join(", ")}: the apiserver drops ${diff.onlyA.length > 1 ? "them" : "it"} from a ${to} object unless the converter carries ${diff.onlyA.length > 1 ? "them" : "it"} over`
      : "",
    diff.onlyB.length > 0 ? `  only ${to} has ${diff.onlyB.join(", ")}` : "",
    ...diff.changed.map((change) => `  ${change.path} is ${change.a} in ${from}, ${change.b} in ${to}`),
  ].filter(Boolean);
  return lines.length > 0 ? `  fields to handle (from the CRD):\n${lines.map((line) => `  ${line}\n`).join("")}` : "";
}

/** zod's issue, with what the value was when zod/mini's message does not say. */
function issueText(issue: core.$ZodIssue, object: unknown): string {
  const path = issue.path
    .map((part) => String(part))
    .reduce((joined, part) => (/^\d+$/.test(part) ? `${joined}[${part}]` : joinPath(joined, part)), "");
  const value = issue.path.reduce<unknown>(
    (node, key) =>
      typeof node === "object" && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined,
    object,
  );
  const what =
    issue.code === "invalid_type" && !/received/.test(issue.message)
      ? ` (expected ${issue.expected}, got ${valueType(value)})`
      : "";
  return `${path || "the object"}: ${issue.message}${what}`;
}

function valueType(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
