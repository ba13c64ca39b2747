/**
 * A converter's refusal by a declared reason: `throw context.refuse("no-port", "hostPort has no port")`
 * (or the standalone `refuse`). The reason is a name the pair declares in defineKind's `refusals`;
 * the message reaches kubectl users as any thrown Error's does. The checks count refusals by
 * reason and fail on a throw that names no reason its pair declared, so a new throw is never
 * hidden by an old declaration.
 */
export class Refusal extends Error {
  override name = "Refusal";

  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

// A brand shared by every copy of this module: the package's subpaths are bundled apart, and the
// test kit must recognise a refusal made by the copy a user's converters import.
const BRAND = Symbol.for("crdshift.refusal");
Object.defineProperty(Refusal.prototype, BRAND, { value: true });

/** A refusal for `reason`, with the message kubectl users read; throw it. */
export function refuse<R extends string>(reason: R, message: string): Refusal {
  const refusal = new Refusal(reason, message);
  // Its stack starts where the converter refused, not here.
  Error.captureStackTrace?.(refusal, refuse);
  return refusal;
}

/** The reason a thrown value names, when it is a crdshift Refusal; else undefined. */
export function refusalReason(thrown: unknown): string | undefined {
  if (typeof thrown !== "object" || thrown === null) return undefined;
  // Read without trusting the value (see thrown-value.ts): a proxy whose traps throw is no refusal.
  try {
    if ((thrown as Record<symbol, unknown>)[BRAND] !== true) return undefined;
    const reason = (thrown as { reason?: unknown }).reason;
    return typeof reason === "string" ? reason : undefined;
  } catch {
    return undefined;
  }
}
