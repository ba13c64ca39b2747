import type { FailureCode } from "../outcome";

/**
 * What the checks and the converter chain throw when an object cannot be converted: the code
 * (which says the cause), and what was wrong (the message). They do not know which object they
 * are looking at; the batch loop, which does, names it. Anything else thrown on the way is
 * crdshift's own bug.
 */
export class ConversionFailure extends Error {
  override name = "ConversionFailure";
  readonly #brand = true;

  /**
   * Whether a caught value is one: unlike `instanceof`, a brand check runs no code of the
   * value's, so a proxy a converter threw cannot throw again here.
   */
  static is(value: unknown): value is ConversionFailure {
    return typeof value === "object" && value !== null && #brand in value;
  }

  constructor(
    readonly code: FailureCode,
    problem: string,
    /** What a converter threw or rejected with (boxed: a converter may throw undefined). */
    readonly thrown?: { value: unknown },
  ) {
    super(problem);
  }
}
