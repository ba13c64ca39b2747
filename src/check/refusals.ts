import { type BatchFailure, firstStackFrame, isError, isInstance, type KindDefinition, textField } from "../conversion";

/** What a converter throws by mistake, never to refuse an object. */
const BUG_TYPES = [TypeError, ReferenceError, RangeError];

/**
 * Telling a converter's refusal from its bug, and a refusal its kind declared from one it did
 * not. A converter refuses an object by throwing an Error that says why; a TypeError,
 * ReferenceError or RangeError, or a throw of something not an Error, is a bug whatever it says.
 * A refusal of an object its source version accepts is a finding unless the kind declares it
 * (defineKind's `refusals`): in a cluster, one refused object fails the whole LIST. Decided by
 * the failure's code and what the converter threw, never by the words of a message.
 */

/**
 * A conversion that failed, as a round trip counts it: a converter's `refused` (its reason), its
 * `bug` (the finding's words), or `failed` for any other code (what was wrong).
 */
export interface FailedConversion {
  verdict: "refused" | "bug" | "failed";
  text: string;
}

export function judgeFailure(failure: BatchFailure): FailedConversion {
  const reason = failure.problem ?? failure.message;
  if (failure.code !== "converter-threw") return { verdict: "failed", text: reason };
  const bug = converterBug(failure.thrown, reason);
  return bug === undefined ? { verdict: "refused", text: reason } : { verdict: "bug", text: bug };
}

/** What a throw says when it is a bug rather than a refusal, with the stack's first frame; else undefined. */
function converterBug(thrown: unknown, reason: string): string | undefined {
  // Asked without trusting the value: a proxy that will not say what it is, is no Error.
  const error = isError(thrown);
  if (error && !BUG_TYPES.some((type) => isInstance(thrown, type))) return undefined;
  const what = error
    ? `${textField(thrown, "name") ?? "Error"}: ${reason}`
    : `${reason} (${thrown === null ? "null" : `a ${typeof thrown}`}, not an Error)`;
  const frame = firstStackFrame(thrown);
  return `${what}: a bug in the converter, not a refusal (to refuse an object, throw an Error that says why)${frame ? `\n  at ${frame}` : ""}`;
}

/** The reason the kind gave for refusing objects on `from -> to`, or undefined if it declared none. */
export function declaredRefusal(kind: KindDefinition, from: string, to: string): string | undefined {
  return kind.refusals?.get(`${from}->${to}`);
}

/** The finding for a refusal the kind did not declare. */
export function undeclaredRefusal(from: string, to: string, reason: string, accepts: string): string {
  return (
    `the converter refused an object ${accepts}: ${reason}\n` +
    `  In a cluster one refused object fails every LIST and watch of the kind in ${to}. Convert it, or, if ${to} ` +
    `truly cannot hold it, declare it in defineKind: refusals: { "${from}->${to}": "why" }`
  );
}
