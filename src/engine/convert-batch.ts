import { quote } from "../clip";
import type { Failure, Result } from "../outcomes";
import { parseApiVersion } from "../protocol/api-version";
import type { Registry } from "../registry/registry";
import { ConversionFailure } from "./conversion-failure";
import { finishObject, startObject } from "./convert-object";
import { DEADLINE_PASSED, pastDeadline, type TimeBudget, withDeadline } from "./time-budget";
import { budgetMessage, failureMessage, internalErrorText, notAnObjectMessage } from "./failure-messages";
import { isJsonObject, type JsonObject } from "./json-values";

export interface BatchOptions {
  budget?: TimeBudget | undefined;
  /**
   * Whether the objects may hold keys named `__proto__` (engine/proto-keys.ts). The webhook
   * knows it from the body text; unset, every object is searched.
   */
  mayHoldProtoKeys?: boolean;
}

/** A failed batch: the failure, which object (its index) and, for a converter that threw, what it threw. */
export interface BatchFailure extends Failure {
  index?: number;
  /** Present when a converter threw or rejected: the test kit tells a refusal from a bug by it. */
  thrown?: unknown;
}

export type BatchResult = Result<{ objects: JsonObject[] }, BatchFailure>;

/**
 * Converts every object of a review to `desiredAPIVersion`, each on its own, order kept.
 * All or nothing: the first failure fails the batch, with a message naming the object, its
 * versions and the cause (the apiserver shows it to users verbatim).
 */
export async function convertObjects(
  registry: Registry,
  desiredAPIVersion: string,
  objects: readonly unknown[],
  options: BatchOptions = {},
): Promise<BatchResult> {
  const desired = parseApiVersion(desiredAPIVersion);
  if (!desired) {
    return {
      ok: false,
      cause: "unknown-version",
      message: `desiredAPIVersion ${quote(desiredAPIVersion)} is not of the form group/version`,
    };
  }
  const { budget, mayHoldProtoKeys = true } = options;
  const converted: JsonObject[] = new Array(objects.length);
  for (let index = 0; index < objects.length; index++) {
    const object = objects[index];
    if (pastDeadline(budget)) return budgetExceeded(index, objects, desiredAPIVersion, budget?.budgetMs);
    if (!isJsonObject(object)) {
      return { ok: false, cause: "invalid-object", index, message: notAnObjectMessage(index, object) };
    }
    try {
      const started = startObject(registry, object, desired, mayHoldProtoKeys);
      // Await only what is really asynchronous: a microtask per object would cost more than
      // a typical converter. A converter that never settles still meets the deadline.
      const output = started instanceof Promise ? await withDeadline(started, budget) : started;
      converted[index] = finishObject(output, object, desiredAPIVersion);
    } catch (error) {
      if (error === DEADLINE_PASSED) return budgetExceeded(index, objects, desiredAPIVersion, budget?.budgetMs);
      return { ok: false, index, ...objectFailure(error, index, object, desiredAPIVersion) };
    }
  }
  return { ok: true, objects: converted };
}

/**
 * The failure an exception in one object's conversion comes to. What the checks and the chain
 * throw says what was wrong with the object or its converters; anything else is crdshift's own
 * bug, never filed under the user's fault.
 */
function objectFailure(error: unknown, index: number, object: JsonObject, desiredAPIVersion: string): BatchFailure {
  if (!(error instanceof ConversionFailure)) {
    return {
      cause: "internal-error",
      message: failureMessage(index, object, desiredAPIVersion, internalErrorText(error)),
    };
  }
  const message = failureMessage(index, object, desiredAPIVersion, error.message);
  return error.thrown
    ? { cause: error.failureCause, message, thrown: error.thrown.value }
    : { cause: error.failureCause, message };
}

function budgetExceeded(
  index: number,
  objects: readonly unknown[],
  desiredAPIVersion: string,
  budgetMs: number | undefined,
): BatchResult {
  return {
    ok: false,
    cause: "budget-exceeded",
    index,
    message: budgetMessage(index, objects, desiredAPIVersion, budgetMs),
  };
}
