import {
  type BatchFailure,
  firstStackFrame,
  isError,
  isInstance,
  type KindDefinition,
  refusalReason,
  textField,
} from "../conversion";

/** What a converter throws by mistake, never to refuse an object. */
const BUG_TYPES = [TypeError, ReferenceError, RangeError];

/**
 * Telling a converter's refusal from its bug, and a refusal its kind declared from one it did
 * not. A converter refuses an object by throwing a Refusal that names one of its pair's declared
 * reasons (defineKind's `refusals`, `context.refuse`); any other Error is a refusal no reason
 * declares, a finding however many reasons the pair declares, since in a cluster one refused
 * object fails the whole LIST. A TypeError, ReferenceError or RangeError, or a throw of something
 * not an Error, is a bug whatever it says. Decided by the failure's code and what the converter
 * threw, never by the words of a message.
 */

/**
 * A conversion that failed, as a round trip counts it: a converter's refusal (`refused`: its
 * message, the reason it names if any, where it was thrown), its `bug` (the finding's words), or
 * `failed` for any other code (what was wrong).
 */
export type FailedConversion =
  | { verdict: "refused"; text: string; reason: string | undefined; frame: string | undefined }
  | { verdict: "bug"; text: string; frame: string | undefined }
  | { verdict: "failed"; text: string; code: string };

export function judgeFailure(failure: BatchFailure): FailedConversion {
  const text = failure.problem ?? failure.message;
  if (failure.code !== "converter-threw") return { verdict: "failed", text, code: failure.code };
  const frame = firstStackFrame(failure.thrown);
  const bug = converterBug(failure.thrown, text, frame);
  if (bug !== undefined) return { verdict: "bug", text: bug, frame };
  return { verdict: "refused", text, reason: refusalReason(failure.thrown), frame };
}

/** What a throw says when it is a bug rather than a refusal, with the stack's first frame; else undefined. */
function converterBug(thrown: unknown, reason: string, frame: string | undefined): string | undefined {
  // Asked without trusting the value: a proxy that will not say what it is, is no Error.
  const error = isError(thrown);
  if (error && !BUG_TYPES.some((type) => isInstance(thrown, type))) return undefined;
  const what = error
    ? `${textField(thrown, "name") ?? "Error"}: ${reason}`
    : `${reason} (${thrown === null ? "null" : `a ${typeof thrown}`}, not an Error)`;
  return `${what}: a bug in the converter, not a refusal (to refuse an object, throw context.refuse(reason, message) with a reason the pair declares)${frame ? `\n  at ${frame}` : ""}`;
}

/**
 * The reasons objects may be refused for on `from -> to`, each with why: those the kind declares
 * for the pair, and for each step of the route between them (a chain's converter refuses for its
 * own pair's reasons).
 */
export function declaredReasons(kind: KindDefinition, from: string, to: string): Map<string, string> {
  const reasons = new Map<string, string>();
  const pairs = [`${from}->${to}`, ...(kind.route(from, to) ?? []).map((step) => `${step.from}->${step.to}`)];
  for (const pair of pairs) for (const [reason, why] of kind.refusals?.get(pair) ?? []) reasons.set(reason, why);
  return reasons;
}

/** The finding for a refusal whose reason the pair does not declare (or that names none). */
export function undeclaredRefusal(
  from: string,
  to: string,
  text: string,
  accepts: string,
  reason: string | undefined,
  declared: ReadonlyMap<string, string>,
): string {
  const named =
    reason === undefined
      ? "naming no declared reason"
      : `for reason "${reason}", which ${from} -> ${to} does not declare`;
  const known = declared.size > 0 ? ` (it declares ${[...declared.keys()].map((r) => `"${r}"`).join(", ")})` : "";
  return (
    `the converter refused an object ${accepts}, ${named}${known}: ${text}\n` +
    `  In a cluster one refused object fails every LIST and watch of the kind in ${to}. Convert it, or, if ${to} ` +
    `truly cannot hold it, declare a reason in defineKind: refusals: { "${from}->${to}": { "some-reason": "why" } }, ` +
    `and throw context.refuse("some-reason", message)`
  );
}
