import { quote, isJsonObject, type JsonObject } from "../json";
import { type Failure, failureOf, type Result } from "../outcome";
import { type GroupVersion, parseApiVersion } from "../kube";
import type { Registry } from "./registry";
import { ConversionFailure } from "./conversion-failure";
import { finishObject, type KindMemo, startObject } from "./convert-object";
import { DEADLINE_PASSED, pastDeadline, type TimeBudget, withDeadline } from "./time-budget";
import { budgetMessage, failureMessage, internalErrorText, notAnObjectMessage } from "./failure-messages";
import { DEFAULT_MAX_DEPTH } from "./result-walk";

export interface BatchOptions {
  budget?: TimeBudget | undefined;
  /**
   * Whether the objects may hold keys named `__proto__` (engine/proto-keys.ts). The webhook
   * knows it from the body text; unset, every object is searched.
   */
  mayHoldProtoKeys?: boolean;
  /** Deepest converted object accepted (CRDSHIFT_MAX_DEPTH). Default: the apiserver's 10,000. */
  maxDepth?: number;
}

/**
 * A failed batch: the failure, which object (its index), what was wrong without the object's
 * name (`problem`, for a report that names the object itself) and, for a converter that threw
 * (code `converter-threw`), what it threw: the test kit tells a refusal from a bug by it.
 */
export interface BatchFailure extends Failure {
  index?: number;
  problem?: string;
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
  return convertEach(registry, desiredAPIVersion, objects, options);
}

/**
 * `convertObjects`, answered synchronously while every converter is: a promise per review
 * would cost more than a typical converter. Only when a converter returns a promise does the
 * rest of the batch continue after it, with the same checks in the same order.
 */
export function convertEach(
  registry: Registry,
  desiredAPIVersion: string,
  objects: readonly unknown[],
  options: BatchOptions = {},
): BatchResult | Promise<BatchResult> {
  const desired = parseApiVersion(desiredAPIVersion);
  if (!desired) {
    return {
      ok: false,
      ...failureOf(
        "desired-version-malformed",
        `desiredAPIVersion ${quote(desiredAPIVersion)} is not of the form group/version`,
      ),
    };
  }
  const batch: Batch = {
    registry,
    desired,
    desiredAPIVersion,
    objects,
    budget: options.budget,
    mayHoldProtoKeys: options.mayHoldProtoKeys ?? true,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    kinds: {},
    converted: new Array(objects.length),
  };
  const outcome = convertFrom(0, batch);
  return outcome instanceof Waiting ? finishAsync(outcome, batch) : outcome;
}

/** One batch's inputs, and its results so far. */
interface Batch {
  registry: Registry;
  desired: GroupVersion;
  desiredAPIVersion: string;
  objects: readonly unknown[];
  budget: TimeBudget | undefined;
  mayHoldProtoKeys: boolean;
  maxDepth: number;
  kinds: KindMemo;
  converted: JsonObject[];
}

/** An object whose converter returned a promise: where the batch waits. */
class Waiting {
  constructor(
    readonly index: number,
    readonly started: Promise<JsonObject>,
  ) {}
}

/**
 * Converts the objects from `first` on, until one fails, all are done, or one's converter
 * returns a promise. Each object: the deadline, then that it is an object, then its conversion.
 */
function convertFrom(first: number, batch: Batch): BatchResult | Waiting {
  const { objects, converted, budget } = batch;
  for (let index = first; index < objects.length; index++) {
    if (pastDeadline(budget)) return budgetExceeded(index, batch);
    const object = objects[index];
    if (!isJsonObject(object)) {
      return { ok: false, index, ...failureOf("not-an-object", notAnObjectMessage(index, object)) };
    }
    try {
      const started = startObject(
        batch.registry,
        object,
        batch.desired,
        batch.mayHoldProtoKeys,
        batch.kinds,
        batch.maxDepth,
      );
      if (started instanceof Promise) return new Waiting(index, started);
      converted[index] = finishObject(started, object, batch.desiredAPIVersion);
    } catch (error) {
      return caught(error, index, object, batch);
    }
  }
  return { ok: true, objects: converted };
}

/** The rest of a batch once a converter returned a promise: awaited (against the deadline), then on. */
async function finishAsync(waiting: Waiting, batch: Batch): Promise<BatchResult> {
  for (;;) {
    const { index } = waiting;
    const object = batch.objects[index] as JsonObject;
    try {
      // A converter that never settles still meets the deadline.
      const output = await withDeadline(waiting.started, batch.budget);
      batch.converted[index] = finishObject(output, object, batch.desiredAPIVersion);
    } catch (error) {
      return caught(error, index, object, batch);
    }
    const outcome = convertFrom(index + 1, batch);
    if (!(outcome instanceof Waiting)) return outcome;
    waiting = outcome;
  }
}

function caught(error: unknown, index: number, object: JsonObject, batch: Batch): BatchResult {
  if (error === DEADLINE_PASSED) return budgetExceeded(index, batch);
  return { ok: false, index, ...objectFailure(error, index, object, batch.desiredAPIVersion) };
}

/**
 * The failure an exception in one object's conversion comes to. What the checks and the chain
 * throw says what was wrong with the object or its converters; anything else is crdshift's own
 * bug, never filed under the user's fault.
 */
function objectFailure(error: unknown, index: number, object: JsonObject, desiredAPIVersion: string): BatchFailure {
  if (!(error instanceof ConversionFailure)) {
    const problem = internalErrorText(error);
    return { ...failureOf("internal-error", failureMessage(index, object, desiredAPIVersion, problem)), problem };
  }
  const problem = error.message;
  const failure = { ...failureOf(error.code, failureMessage(index, object, desiredAPIVersion, problem)), problem };
  return error.thrown ? { ...failure, thrown: error.thrown.value } : failure;
}

function budgetExceeded(index: number, { objects, desiredAPIVersion, budget }: Batch): BatchResult {
  return {
    ok: false,
    index,
    ...failureOf("budget-exceeded", budgetMessage(index, objects, desiredAPIVersion, budget?.budgetMs)),
  };
}
