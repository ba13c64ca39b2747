import { clip } from "../json";
import type { FailureCode } from "../outcome";
import { thrownText } from "./failure-messages";

/**
 * What is wrong with a converter's result (result-walk.ts), and where: the path is collected as
 * the problem travels up the walk, so nothing is tracked on the way down.
 */

export type Key = string | number;

export type ResultProblemCode = Extract<FailureCode, "result-unreadable" | "result-too-large" | "result-too-slow">;

/** What is wrong with a converter's result, and where. */
export class Unreadable {
  readonly #brand = true;

  /** Whether a caught value is one, asked without running any code of the value's (a proxy's traps). */
  static is(value: unknown): value is Unreadable {
    return typeof value === "object" && value !== null && #brand in value;
  }

  /** The keys from the field up to the result, innermost first. */
  readonly keys: Key[] = [];
  /** For a cycle: the objects along the path as the converter holds them, innermost first, the result last. */
  readonly raws: unknown[] = [];

  constructor(
    /** What the message says of the field: `holds NaN`, `could not be read`. */
    readonly problem: string,
    /** What follows the field's path: `: TypeError: …`, `, which JSON cannot carry …`. */
    readonly detail = "",
    /** For a cycle: the object met again, as the converter holds it. */
    readonly target?: object,
    /** The failure it comes to: over a limit of the read (result-budget.ts), or what it holds. */
    readonly code: ResultProblemCode = "result-unreadable",
  ) {}

  /** The message, naming the field: `the converter's result holds NaN at spec.list[1].n, …`. */
  message(): string {
    const path = [...this.keys].reverse();
    if (this.target !== undefined) {
      // Said at the cycle's first turn: the first object met again, where first and where again.
      const raws = [...this.raws].reverse();
      const seen = new Map<unknown, number>();
      for (let again = 0; again < raws.length; again++) {
        const first = seen.get(raws[again]);
        if (first !== undefined) {
          const back = first === 0 ? "the result itself" : pathText(path.slice(0, first));
          return `the converter's result refers to itself: ${pathText(path.slice(0, again))} is ${back}`;
        }
        seen.set(raws[again], again);
      }
    }
    const at = pathText(path);
    return `the converter's result ${this.problem}${at ? ` at ${at}` : ""}${this.detail}`;
  }
}

/** What reading a value threw, as a problem of the result. */
export function unreadable(error: unknown): Unreadable {
  return Unreadable.is(error) ? error : new Unreadable("could not be read", `: ${thrownText(error)}`);
}

/** `error` as a problem under `key`; `raw`: the object held there (for a cycle's message). */
export function within(error: unknown, key: Key, raw?: object): Unreadable {
  const problem = unreadable(error);
  problem.keys.push(key);
  if (problem.target !== undefined) problem.raws.push(raw);
  return problem;
}

/** `spec.list[1].value`, clipped. */
function pathText(path: readonly Key[]): string {
  let text = "";
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : text ? `.${key}` : key;
    if (text.length > 1000) break;
  }
  return clip(text);
}
