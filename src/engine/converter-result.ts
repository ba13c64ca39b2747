import { ConversionFailure } from "./conversion-failure";
import type { JsonObject } from "./json-values";
import { objectPrototypeIsPolluted } from "../protocol/polluted-prototype";
import { ResultWalk, Unreadable } from "./result-walk";

/**
 * A converter's result, read once into crdshift's own data. Everything after a converter, the
 * schema check, the next converter of a chain, the restored metadata, the reply, works on that
 * copy: crdshift never writes into what a converter returned nor depends on its identity, so a
 * result that is frozen, or shared between objects (a cache), or the converter's input comes to
 * the same reply as a fresh object would. Read as JSON reads it (a toJSON's value, boxed
 * primitives unboxed, own enumerable names), so the copy is what the apiserver will receive;
 * whatever fails on the way (a getter or a proxy that throws, a toJSON, a cycle, NaN, a Map)
 * fails here, as the converter's error, naming the field.
 */

export interface ResultOptions {
  /**
   * The chain's last step. Its metadata is replaced by the object's own but for labels and
   * annotations (engine/metadata.ts), so only those are copied; the rest is read by the
   * schema check alone.
   */
  last: boolean;
  /** The values of the input's `__proto__` fields (engine/proto-keys.ts), or undefined. */
  held: Set<object> | undefined;
  /** Appended to a message: where in a chain the converter stands (` (in step v1 -> v2)`). */
  step: string;
}

/** The converter's result as crdshift's own plain object; throws a converter-error ConversionFailure. */
export function readResult(output: unknown, options: ResultOptions): JsonObject {
  const walk = new ResultWalk(options.held, objectPrototypeIsPolluted());
  try {
    const view = walk.top(output);
    if (!walk.isObject(view)) {
      throw new ConversionFailure(
        "converter-error",
        `the converter returned ${what(view)}, not an object${options.step}`,
      );
    }
    // With `held`, the metadata's objects may need their fields back (proto-keys.ts): all copied.
    return walk.copyObject(view, 0, options.last && !options.held);
  } catch (error) {
    if (error instanceof Unreadable)
      throw new ConversionFailure("converter-error", `${walk.message(error)}${options.step}`);
    throw error;
  }
}

/**
 * Whether a converter returned a promise. A proxy answers `instanceof` through a trap of its
 * own, which may throw: that is the converter's error.
 */
export function isPending(output: unknown, step: string): output is Promise<unknown> {
  if (typeof output !== "object" || output === null) return false;
  try {
    return output instanceof Promise;
  } catch (error) {
    const walk = new ResultWalk(undefined, false);
    throw new ConversionFailure("converter-error", `${walk.message(walk.thrown(error))}${step}`);
  }
}

/**
 * A promise a converter returned, settled whatever it is: resolving with it reads its `then`
 * inside the resolution, so a promise that is a proxy or has a `then` that throws rejects
 * instead of throwing here.
 */
export function settle(output: Promise<unknown>): Promise<unknown> {
  return new Promise((resolve) => resolve(output));
}

/** What a result that is not an object is, for a message: an object here is an array (isObject said no). */
function what(value: unknown): string {
  if (value === null) return "null";
  return typeof value === "object" ? "an array" : typeof value;
}
