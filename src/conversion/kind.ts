import { kindLabel, DNS_LABEL_1035, DNS_LABEL_MAX, DNS_SUBDOMAIN, DNS_SUBDOMAIN_MAX } from "../kube";
import type { Converter, ConverterMap, RefusalDeclarations, Schema } from "./converter";
import { computeRoutes, type Route } from "./routes";

export interface KindSpec<V extends Record<string, Schema>, R extends RefusalDeclarations = Record<never, never>> {
  /** The CRD's `spec.group`, e.g. `example.com`. */
  group: string;
  /** The CRD's `spec.names.kind`, e.g. `CronTab`. */
  kind: string;
  /** Every version the CRD lists, each with the schema of the whole object in that version. */
  versions: V;
  /**
   * Why a converter may refuse objects on purpose, per ordered pair of versions (`"v1->v1beta1"`),
   * as a few named reasons, each with why: `{ "v1->v1beta1": { "no-port": "v1beta1's hostPort
   * needs a port" } }`. A converter refuses with one of its pair's reasons (`context.refuse`, a type
   * error for any other); the test kit and `crdshift check` count refusals by reason and fail on
   * any other throw on an object the source version accepts (in a cluster one refusal fails a
   * whole LIST). Written before `converters`, so that their `refuse` is typed by it.
   */
  refusals?: R & { [P in PairName<V>]?: Record<string, string> };
  converters: ConverterMap<V, R>;
  /**
   * Where an empty object or list (`{}`, `[]`) and an absent field mean the same to this kind:
   * `true` everywhere, or field paths (`spec.subject`, list items as `[]`: `spec.rules[].filters`).
   * Round-trip checks then accept one for the other at those paths, and report each they accepted.
   */
  emptyIsAbsent?: true | readonly string[];
}

type PairName<V> = {
  [F in Extract<keyof V, string>]: { [T in Exclude<Extract<keyof V, string>, F>]: `${F}->${T}` }[Exclude<
    Extract<keyof V, string>,
    F
  >];
}[Extract<keyof V, string>];

export interface KindDefinition {
  readonly group: string;
  readonly kind: string;
  readonly versions: ReadonlyMap<string, Schema>;
  /** The shortest chain of converters for every ordered pair of distinct versions. */
  route(from: string, to: string): Route | undefined;
  /** Declared refusals, by `"from->to"`: each reason a pair's converters may refuse objects for, and why. */
  readonly refusals?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Where `{}`/`[]` and absent are declared the same: `true` everywhere, or these paths. */
  readonly emptyIsAbsent?: true | readonly string[];
}

/** What is wrong with a definition, and, when the message says it, how to fix it (`fix`, after a dash). */
export class DefinitionError extends Error {
  override name = "DefinitionError";

  constructor(
    problem: string,
    readonly fix?: string,
  ) {
    super(fix === undefined ? problem : `${problem} — ${fix}`);
  }
}

const KIND = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Declares one kind: its versions and the converters between them. Everything that can be
 * wrong with a definition fails here, at module load, never on a request: bad names, converters
 * naming unknown versions, and any pair of versions that no chain of converters connects.
 */
export function defineKind<
  const V extends Record<string, Schema>,
  const R extends RefusalDeclarations = Record<never, never>,
>(spec: KindSpec<V, R>): KindDefinition {
  const { group, kind } = spec;
  const label = kindLabel({ kind, group });
  if (
    typeof group !== "string" ||
    !DNS_SUBDOMAIN.test(group) ||
    group.length > DNS_SUBDOMAIN_MAX ||
    !group.includes(".")
  ) {
    throw new DefinitionError(`${label}: group must be a DNS subdomain with at least one dot, like "example.com"`);
  }
  if (typeof kind !== "string" || !KIND.test(kind)) {
    throw new DefinitionError(`${label}: kind must be a CamelCase name like "CronTab"`);
  }
  const versions = new Map<string, Schema>();
  for (const [name, schema] of Object.entries(spec.versions ?? {})) {
    if (!DNS_LABEL_1035.test(name) || name.length > DNS_LABEL_MAX) {
      throw new DefinitionError(`${label}: version name "${name}" is not a valid CRD version name (like "v1beta1")`);
    }
    if (typeof (schema as { _zod?: unknown })?._zod !== "object") {
      throw new DefinitionError(`${label}: version ${name} needs a zod schema`);
    }
    versions.set(name, schema);
  }
  if (versions.size === 0) throw new DefinitionError(`${label}: at least one version is required`);

  const edges: Array<{ from: string; to: string; convert: Converter<Schema, Schema> }> = [];
  for (const [from, targets] of Object.entries(spec.converters ?? {})) {
    if (!versions.has(from)) {
      throw new DefinitionError(
        `${label}: converters from "${from}", which is not one of its versions (${[...versions.keys()].join(", ")})`,
        renameHint(from, versions),
      );
    }
    for (const [to, convert] of Object.entries(targets ?? {})) {
      if (!versions.has(to)) {
        throw new DefinitionError(
          `${label}: converter ${from} -> ${to} names "${to}", which is not one of its versions (${[...versions.keys()].join(", ")})`,
          renameHint(to, versions),
        );
      }
      if (to === from) throw new DefinitionError(`${label}: converter ${from} -> ${to} converts a version to itself`);
      if (typeof convert !== "function")
        throw new DefinitionError(`${label}: converter ${from} -> ${to} is not a function`);
      edges.push({ from, to, convert: convert as Converter<Schema, Schema> });
    }
  }

  const { routes, unreachable } = computeRoutes([...versions.keys()], edges, versions);
  if (unreachable.length > 0) {
    const pairs = unreachable.map(([a, b]) => `${a} -> ${b}`).join(", ");
    throw new DefinitionError(
      `${label}: no chain of converters for ${pairs}; every version must reach every other one`,
      `add converters.${unreachable[0]![0]}.${unreachable[0]![1]} (or a chain through another version)`,
    );
  }
  const refusals = declaredRefusals(label, spec.refusals, versions);
  const emptyIsAbsent = declaredEmptyIsAbsent(label, spec.emptyIsAbsent);
  return {
    group,
    kind,
    versions,
    route: (from, to) => routes.get(from)?.get(to),
    ...(refusals ? { refusals } : {}),
    ...(emptyIsAbsent ? { emptyIsAbsent } : {}),
  };
}

const REASON = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

function declaredRefusals(
  label: string,
  declared: Record<string, unknown> | undefined,
  versions: ReadonlyMap<string, Schema>,
): Map<string, Map<string, string>> | undefined {
  if (declared === undefined) return undefined;
  const refusals = new Map<string, Map<string, string>>();
  for (const [pair, reasons] of Object.entries(declared)) {
    const [from, to, extra] = pair.split("->").map((part) => part.trim());
    if (
      from === undefined ||
      to === undefined ||
      extra !== undefined ||
      !versions.has(from) ||
      !versions.has(to) ||
      from === to
    )
      throw new DefinitionError(
        `${label}: refusals key "${pair}" is not "FROM->TO" with two of its versions (${[...versions.keys()].join(", ")})`,
      );
    // A pair-wide reason let any throw of the pair pass as declared: each refusal now names its reason.
    if (typeof reasons === "string")
      throw new DefinitionError(
        `${label}: refusals "${pair}" is one reason for the whole pair, which would pass any throw of its converters as declared`,
        `name each reason: refusals: { "${pair}": { "some-reason": ${JSON.stringify(reasons)} } }, and refuse with context.refuse("some-reason", message)`,
      );
    if (typeof reasons !== "object" || reasons === null || Array.isArray(reasons) || Object.keys(reasons).length === 0)
      throw new DefinitionError(
        `${label}: refusals "${pair}" must name its reasons, each with why: { "some-reason": "why ${to} cannot hold it" }`,
      );
    const named = new Map<string, string>();
    for (const [reason, why] of Object.entries(reasons as Record<string, unknown>)) {
      if (!REASON.test(reason))
        throw new DefinitionError(
          `${label}: refusals "${pair}": reason "${reason}" is not a name like "no-port" (lowercase words joined by -)`,
        );
      if (typeof why !== "string" || why.trim() === "")
        throw new DefinitionError(
          `${label}: refusals "${pair}": reason "${reason}" needs a why: what ${to} cannot hold`,
        );
      named.set(reason, why);
    }
    refusals.set(`${from}->${to}`, named);
  }
  return refusals;
}

function declaredEmptyIsAbsent(label: string, declared: unknown): true | readonly string[] | undefined {
  if (declared === undefined || declared === false) return undefined;
  if (declared === true) return true;
  if (
    !Array.isArray(declared) ||
    declared.length === 0 ||
    !declared.every((path) => typeof path === "string" && path !== "" && !/\[\d/.test(path))
  )
    throw new DefinitionError(
      `${label}: emptyIsAbsent is true or a list of field paths like "spec.subject" (list items as [], not [0])`,
    );
  return [...(declared as string[])];
}

/** The fix for a key naming no version: the version it most likely meant (a typo away), or the list. */
function renameHint(name: string, versions: ReadonlyMap<string, Schema>): string {
  const names = [...versions.keys()];
  const scored = names.map((version) => ({ version, distance: editDistance(name, version) }));
  const best = scored.sort((a, b) => a.distance - b.distance)[0];
  const guess = best && best.distance <= 2 ? `did you mean "${best.version}"? ` : "";
  return `${guess}use one of ${names.join(", ")}, or add "${name}" to versions`;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
