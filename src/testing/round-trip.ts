import fc from "fast-check";
import { type BatchResult, convertObjects } from "../engine/convert-batch";
import { isJsonObject } from "../engine/json-values";
import { kindLabel } from "../protocol/api-version";
import { decodeJson, encodeJson } from "../protocol/json";
import { createRegistry, type KindDefinition, sortVersions } from "../registry";
import { arbitraryFor } from "./arbitrary";

export interface PairReport {
  from: string;
  to: string;
  /** Objects that went A -> B -> A and came back equal. */
  roundTrips: number;
  /** Objects the A -> B converter refused by throwing an Error (a clean Failure, not a defect). */
  refused: number;
  /** The first refusal's message, as kubectl users would read it after the object's name. */
  sampleRefusal?: string;
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
 * by throwing an Error that says why: that is a clean Failure for the user. Defects are: a
 * TypeError, ReferenceError or RangeError, or a throw of something not an Error (bugs in the
 * converter, whatever they say); a B that fails B's schema; a B that cannot go back to A;
 * anything lost or changed on the way; and a pair where no object made the round trip, which
 * proves nothing.
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
        const pair: PairReport = { from, to, roundTrips: 0, refused: 0 };
        report.pairs.push(pair);
        const objects = fc
          .tuple(
            fc.oneof(
              arbitraryFor(kind.versions.get(from)!, { unknownFields: true }),
              arbitraryFor(kind.versions.get(from)!, { partial: true, unknownFields: true }),
            ),
            metadata,
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
            const outcome = await roundTrip(registry, object, kind.group, to);
            if (outcome === "ok") {
              pair.roundTrips++;
            } else {
              pair.refused++;
              pair.sampleRefusal ??= outcome.refused;
            }
          }),
          { numRuns: options.runs ?? 200, ...(options.seed !== undefined ? { seed: options.seed } : {}) },
        );
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

const metadata = fc.record(
  {
    name: fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,14}[a-z0-9])?$/),
    namespace: fc.constantFrom("default", "team-a"),
    uid: fc.uuid(),
    resourceVersion: fc.nat().map(String),
    labels: fc.dictionary(
      fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?\.io\/[a-z]{1,6}$/),
      fc.stringMatching(/^[a-z0-9]{0,8}$/),
      { maxKeys: 2, noNullPrototype: true },
    ),
    annotations: fc.dictionary(
      fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?\.io\/[a-z]{1,6}$/),
      fc.string({ maxLength: 12 }),
      { maxKeys: 2, noNullPrototype: true },
    ),
  },
  { requiredKeys: ["name"], noNullPrototype: true },
);

async function roundTrip(
  registry: ReturnType<typeof createRegistry>,
  object: Record<string, unknown>,
  group: string,
  to: string,
): Promise<"ok" | { refused: string }> {
  const from = String(object.apiVersion);
  const there = await convertObjects(registry, `${group}/${to}`, [object]);
  if (!there.ok) {
    const reason = reasonOf(there, `${group}/${to}`);
    if (!("thrown" in there)) throw new Error(`converting to ${to} failed: ${reason}`);
    const bug = converterBug(there.thrown, reason);
    if (bug) throw new Error(`converting to ${to} threw ${bug}`);
    // A converter saying no, in words, is the webhook working as it should.
    return { refused: reason };
  }
  const back = await convertObjects(registry, from, there.objects);
  if (!back.ok) {
    const reason = reasonOf(back, from);
    const bug = "thrown" in back ? converterBug(back.thrown, reason) : undefined;
    throw new Error(
      bug
        ? `${to} was accepted, but converting it back threw ${bug}`
        : `${to} was accepted, but converting it back failed: ${reason}`,
    );
  }
  const difference = firstDifference(normalize(object), normalize(back.objects[0]), "");
  if (difference) throw new Error(`not the same after the round trip: ${difference}`);
  return "ok";
}

/** The engine's message without the object's name and versions, which the report gives. */
function reasonOf(result: Extract<BatchResult, { ok: false }>, desired: string): string {
  const marker = ` -> ${desired}: `;
  const at = result.message.indexOf(marker);
  return at < 0 ? result.message : result.message.slice(at + marker.length);
}

/**
 * What a throw says when it is a bug rather than a refusal, with the stack's first frame; or
 * undefined for an Error of any other type, which is how a converter refuses an object.
 */
function converterBug(thrown: unknown, reason: string): string | undefined {
  if (
    thrown instanceof Error &&
    !(thrown instanceof TypeError || thrown instanceof ReferenceError || thrown instanceof RangeError)
  )
    return undefined;
  const what =
    thrown instanceof Error
      ? `${thrown.name}: ${reason}`
      : `${reason} (${thrown === null ? "null" : `a ${typeof thrown}`}, not an Error)`;
  const frame =
    thrown instanceof Error
      ? thrown.stack
          ?.split("\n")
          .find((line) => /^\s+at /.test(line))
          ?.trim()
      : undefined;
  return `${what}: a bug in the converter, not a refusal (to refuse an object, throw an Error that says why)${frame ? `\n  ${frame}` : ""}`;
}

/** The object as JSON carries it (what the apiserver stores); empty label and annotation maps are the same as none. */
function normalize(object: unknown): unknown {
  const copy = decodeJson(encodeJson(object)).value;
  const metadata = isJsonObject(copy) ? copy.metadata : undefined;
  if (isJsonObject(metadata)) {
    for (const field of ["labels", "annotations"]) {
      const map = metadata[field];
      if (isJsonObject(map) && Object.keys(map).length === 0) delete metadata[field];
    }
  }
  return copy;
}

/** A value for a message, as JSON (integers beyond 2^53 exact), or "missing". */
function show(value: unknown): string {
  return value === undefined ? "missing" : encodeJson(value);
}

function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  const where = path || "the object";
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    return Object.is(a, b) ? undefined : `${where} was ${show(a)}, came back ${show(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${where} changed type`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  // Own fields only: a field named __proto__ that is missing must not read as the prototype.
  const field = (object: object, key: string) =>
    Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
  for (const key of keys) {
    const next = Array.isArray(a)
      ? `${path}[${key}]`
      : /^[A-Za-z_$][\w$-]*$/.test(key)
        ? path
          ? `${path}.${key}`
          : key
        : `${path}[${JSON.stringify(key)}]`;
    const found = firstDifference(field(a, key), field(b, key), next);
    if (found) return found;
  }
  return undefined;
}
