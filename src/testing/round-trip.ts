import fc from "fast-check";
import { convertObjects } from "../engine/convert";
import { createRegistry, sortVersions, type KindDefinition } from "../registry";
import { arbitraryFor } from "./arbitrary";

export interface PairReport {
  from: string;
  to: string;
  /** Objects that went A -> B -> A and came back equal. */
  roundTrips: number;
  /** Objects the A -> B converter refused with a message (a clean Failure, not a defect). */
  refused: number;
}

export interface KindReport {
  kind: string;
  ok: boolean;
  pairs: PairReport[];
  /** The first defect found, shrunk to a small object, in words. */
  failure?: string;
}

export interface CheckOptions {
  /** Objects tried per ordered pair of versions (default 200). */
  runs?: number;
  seed?: number;
}

/**
 * Proves a kind's converters: for every ordered pair of versions A, B, objects generated from
 * A's schema (whole and partial, with labels, annotations and fields no schema names) go
 * A -> B -> A through the real engine and must come back equal. A converter may refuse an object
 * (throw): that is a clean Failure for the user. Defects are: a B that fails B's schema, a B that
 * cannot go back to A, and anything lost or changed on the way.
 */
export function checkKind(kind: KindDefinition, options: CheckOptions = {}): Promise<KindReport> {
  return checkKinds([kind], options).then((reports) => reports[0]!);
}

export async function checkKinds(kinds: readonly KindDefinition[], options: CheckOptions = {}): Promise<KindReport[]> {
  const reports: KindReport[] = [];
  for (const kind of kinds) {
    const registry = createRegistry([kind]);
    const name = `${kind.kind}.${kind.group}`;
    const versions = sortVersions([...kind.versions.keys()]);
    const report: KindReport = { kind: name, ok: true, pairs: [] };
    reports.push(report);
    for (const from of versions) {
      for (const to of versions) {
        if (from === to) continue;
        const pair: PairReport = { from, to, roundTrips: 0, refused: 0 };
        report.pairs.push(pair);
        const objects = fc
          .tuple(fc.oneof(arbitraryFor(kind.versions.get(from)!, { unknownFields: true }), arbitraryFor(kind.versions.get(from)!, { partial: true })), metadata)
          .map(([fields, meta]) => ({ ...fields, apiVersion: `${kind.group}/${from}`, kind: kind.kind, metadata: meta }));
        const result = await fc.check(
          fc.asyncProperty(objects, async (object) => {
            // Objects the version's own schema refuses could never be stored: not a counterexample.
            fc.pre((kind.versions.get(from)!["~standard"].validate(object) as { issues?: unknown }).issues === undefined);
            const outcome = await roundTrip(registry, object, kind.group, to);
            if (outcome === "refused") pair.refused++;
            else pair.roundTrips++;
          }),
          { numRuns: options.runs ?? 200, ...(options.seed !== undefined ? { seed: options.seed } : {}) },
        );
        if (result.failed) {
          report.ok = false;
          const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
          report.failure = `${name} ${from} -> ${to} -> ${from}: ${error}\n  object: ${JSON.stringify(result.counterexample?.[0])}\n  (replay with seed ${result.seed})`;
          return reports;
        }
      }
    }
  }
  return reports;
}

/** Throws with the readable report unless every kind round-trips: for a user's own tests. */
export async function assertRoundTrips(kinds: KindDefinition | readonly KindDefinition[], options?: CheckOptions): Promise<void> {
  const reports = await checkKinds(Array.isArray(kinds) ? kinds : [kinds as KindDefinition], options);
  const failed = reports.find((report) => !report.ok);
  if (failed) throw new Error(failed.failure);
}

const metadata = fc.record(
  {
    name: fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,14}[a-z0-9])?$/),
    namespace: fc.constantFrom("default", "team-a"),
    uid: fc.uuid(),
    resourceVersion: fc.nat().map(String),
    labels: fc.dictionary(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?\.io\/[a-z]{1,6}$/), fc.stringMatching(/^[a-z0-9]{0,8}$/), { maxKeys: 2 }),
    annotations: fc.dictionary(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?\.io\/[a-z]{1,6}$/), fc.string({ maxLength: 12 }), { maxKeys: 2 }),
  },
  { requiredKeys: ["name"] },
);

async function roundTrip(registry: ReturnType<typeof createRegistry>, object: Record<string, unknown>, group: string, to: string): Promise<"ok" | "refused"> {
  const from = String(object.apiVersion);
  const there = await convertObjects(registry, `${group}/${to}`, [object]);
  if (!there.ok) {
    // A converter saying no, in words, is the webhook working as it should.
    if (there.cause === "converter-error") return "refused";
    throw new Error(`converting to ${to} failed: ${there.message}`);
  }
  const back = await convertObjects(registry, from, there.objects);
  if (!back.ok) throw new Error(`${to} was accepted, but converting it back failed: ${back.message}`);
  const difference = firstDifference(normalize(object), normalize(back.objects[0]), "");
  if (difference) throw new Error(`not the same after the round trip: ${difference}`);
  return "ok";
}

/** Empty label and annotation maps are the same as none to Kubernetes. */
function normalize(object: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(object)) as Record<string, any>;
  for (const field of ["labels", "annotations"]) {
    if (copy.metadata?.[field] && Object.keys(copy.metadata[field]).length === 0) delete copy.metadata[field];
  }
  return copy;
}

function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  const where = path || "the object";
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    return Object.is(a, b) ? undefined : `${where} was ${JSON.stringify(a) ?? "missing"}, came back ${JSON.stringify(b) ?? "missing"}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${where} changed type`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const next = Array.isArray(a) ? `${path}[${key}]` : /^[A-Za-z_$][\w$-]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
    const found = firstDifference((a as any)[key], (b as any)[key], next);
    if (found) return found;
  }
  return undefined;
}
