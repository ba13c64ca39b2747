import { convertObjects, type KindDefinition, type Registry } from "../conversion";
import { type Crd, pruneLikeApiserver, type OpenApiSchema, firstViolation, celRules } from "../kube/crd";
import { type CelOutcome, checkCelRules } from "./cel-check";
import { purityProblem } from "./converter-purity";
import { mayLackFor } from "./declared-gaps";
import { declaredReasons, judgeFailure, undeclaredRefusal } from "./refusals";
import { FindingError, RANK } from "./findings";
import { leadingPath, schemaField, violationPath, violationRule } from "./finding-field";
import { type Equivalences, roundTripDifference, withLosses } from "./round-trip-comparison";

export type SchemaOf = Map<string, Crd["versions"][number]["schema"]>;

/** A generated object of one version, and whether it is partial (as server-side apply sends). */
export interface Sample {
  object: Record<string, unknown>;
  partial: boolean;
}

/** What one kind's round trips are held to; shared by every object of a check. */
export interface RoundTripSetup {
  registry: Registry;
  kind: KindDefinition;
  equivalences: Equivalences;
  /**
   * The kind's CRD schemas by version, when known. `asStored`: the samples come from these
   * schemas and each result is kept as the apiserver keeps it (pruned) and held to them; else
   * (samples from the zod schemas) they serve only to tell which refused inputs a cluster could hold.
   */
  crd?: { schemaOf: SchemaOf; asStored: boolean };
  /** Filled in: CEL rules that could not be evaluated, by version, place and rule. */
  celErrors: Map<string, { version: string; path: string; rule: string; reason: string }>;
}

/** How one object's round trip went, when it raised no finding. */
export interface RoundTripOutcome {
  /** The converter refused the object for a reason its pair declares: the reason, and the message. */
  refused?: { reason: string; message: string };
  /** Refused or failed, but the input is one the apiserver would not have stored: no finding. */
  refusedOutsideCrd: boolean;
  /** The input breaks its own CRD schema as this check reads it: results not held to the target's. */
  unvalidated: boolean;
  /** The results were held to the target's CEL rules (whole inputs that keep all of their own). */
  celChecked: boolean;
}

/**
 * One object of `from` through `to` and back, by the engine, and its finding, thrown as a
 * FindingError (its words, and the rule and field that tell it from other findings):
 * a converter's bug (judgeFailure); a refusal for no reason the pair declares, unless the apiserver
 * would not have stored the input (`storable`); a converter that changes its input, keeps state
 * or answers differently when called again; a result the engine refuses, or (with a CRD,
 * `asStored`) one that breaks the target version's CRD schema or CEL rules once pruned as the
 * apiserver prunes it (the apiserver does not validate a webhook's result: it hands such an
 * object out, and every later update of it fails validation); a result that cannot go back;
 * anything lost or changed on the way but for the kind's declared equivalences.
 */
export async function roundTripObject(
  setup: RoundTripSetup,
  sample: Sample,
  from: string,
  to: string,
): Promise<RoundTripOutcome> {
  try {
    return await roundTrip(setup, sample, from, to);
  } catch (error) {
    // An input the apiserver would never store (a whole object that breaks the CRD's CEL rules,
    // say) shows nothing about the converters, whatever happens to it: asked only once something
    // went wrong. A partial object is not stored but sent as it is (storable's `partial`).
    const schema = setup.crd?.schemaOf.get(from);
    if (error instanceof FindingError && !storable(sample.object, schema, setup.crd?.asStored === true, sample.partial))
      return { refusedOutsideCrd: true, unvalidated: false, celChecked: false };
    throw error;
  }
}

async function roundTrip(setup: RoundTripSetup, sample: Sample, from: string, to: string): Promise<RoundTripOutcome> {
  const { object, partial } = sample;
  const { registry, kind, equivalences, crd } = setup;
  const schemaOf: SchemaOf = crd?.schemaOf ?? new Map();
  const asStored = crd?.asStored === true;
  const fieldOf = (path: string, version: string) =>
    schemaField(path, asStored ? schemaOf.get(version) : kind.versions.get(version));
  const impure = await purityProblem(kind, object, from, to);
  if (impure) throw new FindingError("impure converter", impure.replace(/ \(.*$|:.*$/s, ""), RANK.converter, impure);
  const there = await convertObjects(registry, `${kind.group}/${to}`, [object]);
  if (!there.ok) {
    // Told apart by the failure's code and what the converter threw, never by a message's words.
    const failed = judgeFailure(there);
    if (failed.verdict === "failed") {
      // A result its schema refuses names the field after "schema: ": one finding per field.
      const issue = /schema: (.*)$/s.exec(failed.text)?.[1];
      const field = issue === undefined ? "" : ` ${fieldOf(violationPath(issue), to)}`;
      throw new FindingError(
        "failed",
        `${failed.code}${field}`,
        RANK.converter,
        `converting to ${to} failed: ${failed.text}`,
      );
    }
    if (failed.verdict === "bug")
      throw new FindingError(
        "threw",
        failed.frame ?? failed.text,
        RANK.converter,
        `converting to ${to} threw ${failed.text}`,
      );
    // A converter saying no, for a reason its pair declares, is the webhook working as it should.
    const declared = declaredReasons(kind, from, to);
    if (failed.reason !== undefined && declared.has(failed.reason))
      return {
        refused: { reason: failed.reason, message: failed.text },
        refusedOutsideCrd: false,
        unvalidated: false,
        celChecked: false,
      };
    const accepts = asStored ? `the CRD's ${from} schema accepts` : `its ${from} schema accepts`;
    // One finding per reason named, or per place a reasonless Error is thrown.
    throw new FindingError(
      "refused",
      failed.reason ?? failed.frame ?? failed.text,
      RANK.converter,
      undeclaredRefusal(from, to, failed.text, accepts, failed.reason, declared),
    );
  }
  const stored = asStored ? pruneLikeApiserver(there.objects[0], schemaOf.get(to)) : there.objects[0];
  // The results are held to the target's schema only for inputs the source's schema accepts as
  // this check reads it (a pattern JavaScript cannot read, say, leaves generated text unchecked).
  const validated = asStored && violationOf(object, schemaOf.get(from), partial) === undefined;
  const celChecked = validated && !partial && celHolds(setup, object, from, to);
  if (asStored) {
    const mayLack = mayLackFor(equivalences, from, to, object);
    const broken = validated ? violationOf(stored, schemaOf.get(to), partial, mayLack) : undefined;
    const celBroken = celChecked ? celViolation(setup, stored, to) : undefined;
    const violation = broken ?? celBroken;
    if (violation !== undefined)
      throw new FindingError(
        `invalid ${to} result: ${violationRule(violation)}`,
        fieldOf(violationPath(violation), to),
        RANK.invalid,
        `the ${to} result breaks the CRD's ${to} schema: ${violation}\n` +
          `  The apiserver does not validate a conversion webhook's result: it would hand this object to clients, and every later update of it would fail validation.`,
      );
  }
  const back = await convertObjects(registry, `${kind.group}/${from}`, [stored]);
  if (!back.ok) {
    const failed = judgeFailure(back);
    const { verdict, text } = failed;
    const kept = asStored ? `the ${to} object (as the apiserver keeps it)` : `${to}`;
    const which =
      failed.verdict === "failed"
        ? failed.code
        : ((failed.verdict === "refused" ? failed.reason : undefined) ?? failed.frame ?? text);
    throw new FindingError(
      `not converted back (${verdict})`,
      which,
      RANK.invalid,
      verdict === "bug"
        ? `${kept} was accepted, but converting it back threw ${text}`
        : `${kept} was accepted, but converting it back failed: ${text}`,
    );
  }
  const returned = asStored ? pruneLikeApiserver(back.objects[0], schemaOf.get(from)) : back.objects[0];
  const difference = roundTripDifference(object, returned, withLosses(equivalences, kind, from, to));
  if (difference)
    throw new FindingError(
      "not the same after the round trip",
      fieldOf(leadingPath(difference), from),
      RANK.lost,
      `not the same after the round trip: ${difference}`,
    );
  const brokenBack = validated ? violationOf(returned, schemaOf.get(from), partial) : undefined;
  if (brokenBack)
    throw new FindingError(
      `invalid ${from} after the round trip: ${violationRule(brokenBack)}`,
      fieldOf(violationPath(brokenBack), from),
      RANK.invalid,
      `converted back to ${from}, it breaks the CRD's ${from} schema: ${brokenBack}`,
    );
  return { refusedOutsideCrd: false, unvalidated: asStored && !validated, celChecked };
}

/**
 * Whether the apiserver could have stored the input, as far as the CRD tells: refusing one it
 * could not is no finding. A whole input that breaks its own CEL rules could not be stored; nor,
 * for inputs generated from the looser zod schemas, one that breaks the CRD's schema (required
 * fields aside: objects may be partial). An input generated from the CRD's own schema is one the
 * apiserver stores: where this check's reading of the schema disagrees, the reading is suspect
 * (such inputs are counted `unvalidated`), not the refusal.
 *
 * A partial object (server-side apply's applied configuration, managed fields) breaking a CEL
 * rule is excused nothing: the apiserver sends it to the webhook without evaluating CEL rules on
 * it, so any failure on it fails that apply in a cluster. Only a refusal for a reason the pair
 * declares passes there, as anywhere (counted `refused` before this is asked).
 */
function storable(
  object: Record<string, unknown>,
  schema: OpenApiSchema | undefined,
  fromCrd: boolean,
  partial: boolean,
): boolean {
  if (schema === undefined) return true;
  if (!fromCrd && firstViolation(object, schema, "", { partial: true }) !== undefined) return false;
  if (partial) return true;
  return checkCelRules(object, schema).violation === undefined;
}

/**
 * Whether the input keeps its own version's CEL rules, all of them evaluated. Where some could
 * not be, the target's rules are not held to either: each is listed as not checked, so that a
 * rule of `from` this check cannot evaluate does not silently switch off every rule of `to`.
 */
function celHolds(setup: RoundTripSetup, object: unknown, version: string, target: string): boolean {
  const schemaOf = setup.crd!.schemaOf;
  const outcome = checkCelRules(object, schemaOf.get(version));
  noteErrors(setup, version, outcome.errors);
  if (outcome.violation !== undefined) return false;
  if (outcome.errors.length === 0) return true;
  const reason = `not held to: inputs' ${version} rules could not all be evaluated (${outcome.errors[0]!.rule})`;
  const skipped = celRules(schemaOf.get(target)).filter((rule) => !rule.transition);
  noteErrors(
    setup,
    target,
    skipped.map(({ path, rule }) => ({ path, rule, reason })),
  );
  return false;
}

function celViolation(setup: RoundTripSetup, object: unknown, version: string): string | undefined {
  const outcome = checkCelRules(object, setup.crd!.schemaOf.get(version));
  noteErrors(setup, version, outcome.errors);
  return outcome.violation;
}

function noteErrors(setup: RoundTripSetup, version: string, errors: CelOutcome["errors"]): void {
  for (const error of errors) {
    const key = `${version}\n${error.path.replace(/\[\d+\]/g, "[]")}\n${error.rule}`;
    if (!setup.celErrors.has(key))
      setup.celErrors.set(key, { version, ...error, path: error.path.replace(/\[\d+\]/g, "[]") });
  }
}

/** The first check of the version's schema the object fails (required fields aside, for a partial object). */
function violationOf(
  object: unknown,
  schema: OpenApiSchema | undefined,
  partial: boolean,
  mayLack?: (path: string) => boolean,
): string | undefined {
  return schema === undefined
    ? undefined
    : firstViolation(object, schema, "", { partial, ...(mayLack ? { mayLack } : {}) });
}
