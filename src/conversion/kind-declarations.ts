import type * as core from "zod/v4/core";
import type { Schema } from "./converter";
import { DefinitionError } from "./definition-error";
import { type FieldPathOf, formatPath, parsePath, schemaPath } from "./mapping";

/**
 * What a kind declares about its own conversions, for the checks (defineKind's `refusals`,
 * `emptyIsAbsent`, `gaps`), each read and held to the kind's versions when the module loads.
 */

type Names<V> = Extract<keyof V, string>;

/** `"from->to"` for every ordered pair of distinct versions. */
export type PairName<V> = {
  [F in Names<V>]: { [T in Exclude<Names<V>, F>]: `${F}->${T}` }[Exclude<Names<V>, F>];
}[Names<V>];

/** Per pair, the target version's field paths (typed by its schema) and why each may be missing. */
export type Gaps<V extends Record<string, Schema>> = {
  [P in PairName<V>]?: P extends `${string}->${infer T extends Names<V>}`
    ? { readonly [Path in FieldPathOf<core.input<V[T]>>]?: string }
    : never;
};

/** `"from->to"` as two of the kind's versions, or a DefinitionError naming the option. */
function pairOf(label: string, option: string, pair: string, versions: ReadonlyMap<string, Schema>): [string, string] {
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
      `${label}: ${option} key "${pair}" is not "FROM->TO" with two of its versions (${[...versions.keys()].join(", ")})`,
    );
  return [from, to];
}

const REASON = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** The declared refusals by pair: each a few named reasons, each with why (a pair-wide string is refused). */
export function declaredRefusals(
  label: string,
  declared: Record<string, unknown> | undefined,
  versions: ReadonlyMap<string, Schema>,
): Map<string, Map<string, string>> | undefined {
  if (declared === undefined) return undefined;
  const refusals = new Map<string, Map<string, string>>();
  for (const [pair, reasons] of Object.entries(declared)) {
    const [from, to] = pairOf(label, "refusals", pair, versions);
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

export function declaredEmptyIsAbsent(label: string, declared: unknown): true | readonly string[] | undefined {
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

/**
 * The declared gaps by pair: each path one the target's schema declares (a typo would declare
 * nothing and hide the finding it was meant for), each with a reason.
 */
export function declaredGaps(
  label: string,
  declared: unknown,
  versions: ReadonlyMap<string, Schema>,
): Map<string, Map<string, string>> | undefined {
  if (declared === undefined) return undefined;
  if (typeof declared !== "object" || declared === null || Array.isArray(declared))
    throw new DefinitionError(`${label}: gaps is an object by pair, like { "v1beta1->v1": { spec: "why" } }`);
  const gaps = new Map<string, Map<string, string>>();
  for (const [pair, paths] of Object.entries(declared)) {
    const [from, to] = pairOf(label, "gaps", pair, versions);
    if (typeof paths !== "object" || paths === null || Array.isArray(paths) || Object.keys(paths).length === 0)
      throw new DefinitionError(
        `${label}: gaps "${pair}" is an object of ${to}'s field paths, each with why it may be missing`,
      );
    const byPath = new Map<string, string>();
    for (const [path, why] of Object.entries(paths as Record<string, unknown>)) {
      const segments = parsePath(path);
      if (typeof segments === "string" || typeof segments.at(-1) !== "string")
        throw new DefinitionError(
          `${label}: gaps "${pair}": "${path}" is not the path of a field, like spec or spec.rules[].type (list items as [])`,
        );
      if (schemaPath(versions.get(to)!, segments) === "missing")
        throw new DefinitionError(`${label}: gaps "${pair}": ${path} is not a field of ${to}'s schema`);
      if (typeof why !== "string" || why.trim() === "")
        throw new DefinitionError(
          `${label}: gaps "${pair}": ${path} needs a reason: why ${from} objects may lack what ${to} requires there`,
        );
      byPath.set(formatPath(segments), why);
    }
    gaps.set(`${from}->${to}`, byPath);
  }
  return gaps;
}
