import { ConversionFailure } from "./conversion-failure";
import { type JsonObject, objectPrototypeIsPolluted } from "../json";
import { ConvertedMaps, MapRead } from "./metadata-guard";
import { isArray } from "./result-view";
import { Unreadable, unreadable, within } from "./result-problem";
import { ResultWalk } from "./result-walk";
import { ResultBudget, type ResultLimits } from "./result-budget";

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
   * annotations (metadata-guard.ts): it is not copied, but read by the schema check, and its
   * labels and annotations by `readConvertedMaps`.
   */
  last: boolean;
  /** The values of the input's `__proto__` fields (json/proto-keys.ts), or undefined. */
  held: Set<object> | undefined;
  /** Appended to a message: where in a chain the converter stands (` (in step v1 -> v2)`). */
  step: string;
  /** What the result may take. */
  limits: ResultLimits;
  /**
   * The count to read it under, or a new one of `limits`: the last step's is passed on to
   * `readConvertedMaps`, so its labels and annotations are counted with the rest.
   */
  budget?: ResultBudget | undefined;
}

/** The converter's result as crdshift's own plain object; throws a converter-error ConversionFailure. */
export function readResult(output: unknown, options: ResultOptions): JsonObject {
  try {
    const { limits } = options;
    const budget = options.budget ?? new ResultBudget(limits.maxBytes, limits.time);
    const walk = new ResultWalk(options.held, objectPrototypeIsPolluted(), limits.maxDepth, budget);
    const view = typeof output === "object" && output !== null ? walk.view(output, "") : output;
    if (typeof view !== "object" || view === null || isArray(view)) {
      const what = view === null ? "null" : typeof view === "object" ? "an array" : typeof view;
      throw new ConversionFailure("result-not-object", `the converter returned ${what}, not an object${options.step}`);
    }
    // With `held`, the metadata's objects may need their fields back (proto-keys.ts): all copied.
    return walk.copyObject(view, 0, options.last && !options.held);
  } catch (error) {
    if (!Unreadable.is(error)) throw error;
    if (error.target !== undefined) error.raws.push(output);
    throw failure(error, options.step);
  }
}

const NO_MAPS = new ConvertedMaps(undefined, undefined);

/**
 * The labels and annotations of the last step's result (`readResult` with `last`, which left
 * its metadata as the converter's), read once as the metadata guard reads them: without
 * toJSON, a map as its own names and values. Counted under `budget`, the one the rest of the
 * result was read under: a map of millions of entries, a value of hundreds of megabytes, or
 * getters that take too long fail as the rest of a result would (result-too-large,
 * result-too-slow). Throws a converter-error ConversionFailure.
 */
export function readConvertedMaps(result: JsonObject, step: string, budget: ResultBudget): ConvertedMaps {
  const { metadata } = result;
  if (typeof metadata !== "object" || metadata === null) return NO_MAPS;
  try {
    if (isArray(metadata)) return NO_MAPS;
  } catch (error) {
    throw failure(within(error, "metadata"), step);
  }
  const map = metadata as JsonObject;
  return new ConvertedMaps(readMap(map, "labels", step, budget), readMap(map, "annotations", step, budget));
}

function readMap(metadata: JsonObject, field: "labels" | "annotations", step: string, budget: ResultBudget): unknown {
  try {
    let value: unknown = field === "labels" ? metadata.labels : metadata.annotations;
    if (typeof value !== "object" || value === null) return value;
    // The guard says of a list only that it is one: an empty one of crdshift's says it, where
    // the converter's (a proxy) could still run code of its own.
    if (Array.isArray(value)) return [];
    // Not a plain object (a Map, a Date, a boxed string): as JSON writes it, or refused as
    // elsewhere in a result. Its own fields, none, would read as `{}` and clear the object's map.
    const prototype = Object.getPrototypeOf(value) as object | null;
    if (prototype !== Object.prototype && prototype !== null) {
      value = new ResultWalk(undefined, false).view(value, field);
      if (typeof value !== "object" || value === null) return value;
      if (Array.isArray(value)) return [];
    }
    return countedMap(value, budget);
  } catch (error) {
    throw failure(within(within(error, field), "metadata"), step);
  }
}

/**
 * `MapRead.of`, counted: the number of names before any value is read (a proxy's names are
 * whatever its trap returns), then each name and value as JSON writes them. A value that is not
 * a string the guard refuses (labels-invalid, annotations-invalid): it counts one byte.
 */
function countedMap(map: object, budget: ResultBudget): MapRead {
  const keys = Object.keys(map);
  budget.chargeMap(keys.length);
  const values = Object.values(map);
  // A getter may remove names while Object.values runs: only the names it read are counted.
  const count = Math.min(keys.length, values.length);
  for (let i = 0; i < count; i++) {
    const value = values[i];
    try {
      budget.charge(keys[i]!.length + (typeof value === "string" ? value.length + 6 : 5));
    } catch (error) {
      throw within(error, keys[i]!);
    }
  }
  return new MapRead(keys, values);
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
    throw failure(unreadable(error), step);
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

function failure(problem: Unreadable, step: string): ConversionFailure {
  return new ConversionFailure(problem.code, `${problem.message()}${step}`);
}
