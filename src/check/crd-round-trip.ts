import { convertObjects, type KindDefinition, type Registry } from "../conversion";
import { type Crd, pruneLikeApiserver, type OpenApiSchema, firstViolation, celRules } from "../kube/crd";
import { type CelOutcome, checkCelRules } from "./cel-check";
import { purityProblem } from "./converter-purity";
import { declaredRefusal, judgeFailure, undeclaredRefusal } from "./refusals";
import { type Equivalences, roundTripDifference } from "./round-trip-comparison";

export type SchemaOf = Map<string, Crd["versions"][number]["schema"]>;

export interface CrdRoundTrip {
  registry: Registry;
  kind: KindDefinition;
  crd: Crd;
  schemaOf: SchemaOf;
  equivalences: Equivalences;
  /** Filled in: CEL rules that could not be evaluated, by version, place and rule. */
  celErrors: Map<string, { version: string; path: string; rule: string; reason: string }>;
}

/** How one object's round trip went, beyond passing: refused as declared, or held to less than all checks. */
export interface CrdRoundTripOutcome {
  refused: boolean;
  /** Refused, not declared, but the input breaks its own CEL rules: the apiserver would not have stored it. */
  refusedOutsideCrd: boolean;
  /** The input breaks its own schema as this check reads it: results not held to the target's schema. */
  unvalidated: boolean;
  /** The input breaks (or could not be held to) its own CEL rules, or is partial: results not held to the target's. */
  celUnchecked: boolean;
}

/**
 * One object of `from`, which the CRD's `from` schema accepts, through `to` and back as a
 * cluster would take it: converted by the engine, then kept as the apiserver keeps a webhook's
 * result (pruned by `to`'s schema), then converted back and pruned by `from`'s. Throws the
 * finding, in words: a refusal the kind did not declare; a converter's bug; a converter that
 * changes its input, keeps state or answers differently when called again; a result that breaks
 * the target version's schema (the apiserver does not validate a webhook's result: it hands such
 * an object out, and every later update of it fails validation); anything lost on the way.
 */
export async function crdRoundTrip(
  check: CrdRoundTrip,
  sample: { object: Record<string, unknown>; partial: boolean },
  from: string,
  to: string,
): Promise<CrdRoundTripOutcome> {
  const { object, partial } = sample;
  const { registry, kind, crd, schemaOf, equivalences } = check;
  const impure = await purityProblem(kind, object, from, to);
  if (impure) throw new Error(impure);
  const there = await convertObjects(registry, `${crd.group}/${to}`, [object]);
  if (!there.ok) {
    // Told apart by the failure's code and what the converter threw, never by a message's words.
    const { verdict, text } = judgeFailure(there);
    if (verdict === "bug") throw new Error(`converting to ${to} threw ${text}`);
    if (verdict === "refused") {
      const declared = declaredRefusal(kind, from, to) !== undefined;
      // The apiserver would never have stored an input that breaks its own CEL rules: refusing it is no finding.
      const outside = !declared && checkCelRules(object, schemaOf.get(from)).violation !== undefined;
      if (!declared && !outside) throw new Error(undeclaredRefusal(from, to, text, `the CRD's ${from} schema accepts`));
      return { refused: true, refusedOutsideCrd: outside, unvalidated: false, celUnchecked: false };
    }
    throw new Error(`converting to ${to} failed: ${there.message}`);
  }
  const stored = pruneLikeApiserver(there.objects[0], schemaOf.get(to));
  // The results are held to the target's schema only for inputs the source's schema accepts as
  // this check reads it (a pattern JavaScript cannot read, say, leaves generated text unchecked).
  const validated = violationOf(object, schemaOf.get(from), partial) === undefined;
  const broken = validated ? violationOf(stored, schemaOf.get(to), partial) : undefined;
  const celChecked = validated && !partial && celHolds(check, object, from, to);
  const celBroken = celChecked ? celViolation(check, stored, to) : undefined;
  if (broken || celBroken)
    throw new Error(
      `the ${to} result breaks the CRD's ${to} schema: ${broken ?? celBroken}\n` +
        `  The apiserver does not validate a conversion webhook's result: it would hand this object to clients, and every later update of it would fail validation.`,
    );
  const back = await convertObjects(registry, `${crd.group}/${from}`, [stored]);
  if (!back.ok)
    throw new Error(`the ${to} object (as the apiserver keeps it) could not be converted back: ${back.message}`);
  const returned = pruneLikeApiserver(back.objects[0], schemaOf.get(from));
  const difference = roundTripDifference(object, returned, equivalences);
  if (difference) throw new Error(`not the same after the round trip: ${difference}`);
  const brokenBack = validated ? violationOf(returned, schemaOf.get(from), partial) : undefined;
  if (brokenBack) throw new Error(`converted back to ${from}, it breaks the CRD's ${from} schema: ${brokenBack}`);
  return { refused: false, refusedOutsideCrd: false, unvalidated: !validated, celUnchecked: !celChecked };
}

/**
 * Whether the input keeps its own version's CEL rules, all of them evaluated. Where some could
 * not be, the target's rules are not held to either: each is listed as not checked, so that a
 * rule of `from` this check cannot evaluate does not silently switch off every rule of `to`.
 */
function celHolds(check: CrdRoundTrip, object: unknown, version: string, target: string): boolean {
  const outcome = checkCelRules(object, check.schemaOf.get(version));
  noteErrors(check, version, outcome.errors);
  if (outcome.violation !== undefined) return false;
  if (outcome.errors.length === 0) return true;
  const reason = `not held to: inputs' ${version} rules could not all be evaluated (${outcome.errors[0]!.rule})`;
  const skipped = celRules(check.schemaOf.get(target)).filter((rule) => !rule.transition);
  noteErrors(
    check,
    target,
    skipped.map(({ path, rule }) => ({ path, rule, reason })),
  );
  return false;
}

function celViolation(check: CrdRoundTrip, object: unknown, version: string): string | undefined {
  const outcome = checkCelRules(object, check.schemaOf.get(version));
  noteErrors(check, version, outcome.errors);
  return outcome.violation;
}

function noteErrors(check: CrdRoundTrip, version: string, errors: CelOutcome["errors"]): void {
  for (const error of errors) {
    const key = `${version}\n${error.path.replace(/\[\d+\]/g, "[]")}\n${error.rule}`;
    if (!check.celErrors.has(key))
      check.celErrors.set(key, { version, ...error, path: error.path.replace(/\[\d+\]/g, "[]") });
  }
}

/** The first check of the version's schema the object fails (required fields aside, for a partial object). */
export function violationOf(object: unknown, schema: OpenApiSchema | undefined, partial: boolean): string | undefined {
  return schema === undefined ? undefined : firstViolation(object, schema, "", { partial });
}
