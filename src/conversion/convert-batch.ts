import { quote, isJsonObject, type JsonObject } from "../json";
import { type Failure, failureOf, type Result } from "../outcome";
import { parseApiVersion } from "../kube";
import type { Registry } from "./registry";
import { ConversionFailure } from "./conversion-failure";
import { finishObject, type KindMemo, startObject } from "./convert-object";
import { DEADLINE_PASSED, pastDeadline, type TimeBudget, withDeadline } from "./time-budget";
import { budgetMessage, failureMessage, internalErrorText, notAnObjectMessage } from "./failure-messages";
import { DEFAULT_MAX_DEPTH } from "./result-walk";
import { DEFAULT_MAX_OBJECT_BYTES, type ResultLimits } from "./result-budget";

export interface BatchOptions {
  budget?: TimeBudget | undefined;
  /**
   * Whether the objects may hold keys named `__proto__` (json/proto-keys.ts). The webhook
   * knows it from the body text; unset, every object is searched.
   */
  mayHoldProtoKeys?: boolean;
  /** Deepest converted object accepted (CRDSHIFT_MAX_DEPTH). Default: the apiserver's 10,000. */
  maxDepth?: number;
  /**
   * Most bytes of JSON a converter's result may take, an object counted at every place it
   * appears (CRDSHIFT_MAX_OBJECT_BYTES). Default: 3 MiB, as the webhook's.
   */
  maxObjectBytes?: number;
  /**
   * Where each converted object goes once finished, in order: given, the batch keeps none
   * (`objects` comes back empty), so a reply printed as it goes (printed-reply.ts) holds text,
   * not trees.
   */
  take?: (object: JsonObject, index: number) => void;
  /**
   * Decodes the object at `index` when the batch reaches it (objects-one-by-one.ts), for a large
   * body not decoded whole: `objects` then holds what messages read of each object decoded so far.
   */
  decode?: (index: number) => unknown;
  /** After each object converted: a promise to wait for before the next (event-loop-turns.ts), or undefined. */
  pause?: (index: number) => Promise<void> | undefined;
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
 * versions and the cause (the apiserver shows it to users verbatim). Each object: the deadline,
 * then that it is an object, then its conversion.
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
      ...failureOf(
        "desired-version-malformed",
        `desiredAPIVersion ${quote(desiredAPIVersion)} is not of the form group/version`,
      ),
    };
  }
  const { budget } = options;
  const batch: Batch = { objects, desiredAPIVersion, budget };
  const mayHoldProtoKeys = options.mayHoldProtoKeys ?? true;
  const limits: ResultLimits = {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxBytes: options.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES,
    time: budget,
  };
  const kinds: KindMemo = {};
  const { take, decode, pause } = options;
  const converted: JsonObject[] = new Array(take ? 0 : objects.length);
  for (let index = 0; index < objects.length; index++) {
    // Decoded before the deadline is checked, so that a message names the object as ever.
    const object = decode ? decode(index) : objects[index];
    if (pastDeadline(budget)) return budgetExceeded(index, batch);
    if (!isJsonObject(object)) {
      return { ok: false, index, ...failureOf("not-an-object", notAnObjectMessage(index, object)) };
    }
    try {
      const started = startObject(registry, object, desired, mayHoldProtoKeys, kinds, limits);
      // Only a converter's promise can outlast the deadline: it races it (one that never settles included).
      const output = started instanceof Promise ? await withDeadline(started, budget) : started;
      const finished = finishObject(output, object, desiredAPIVersion);
      if (take) take(finished, index);
      else converted[index] = finished;
    } catch (error) {
      return caught(error, index, object, batch);
    }
    const turn = pause?.(index);
    if (turn) await turn;
  }
  return { ok: true, objects: converted };
}

/** What a failure's message names of its batch. */
interface Batch {
  objects: readonly unknown[];
  desiredAPIVersion: string;
  budget: TimeBudget | undefined;
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
  if (!ConversionFailure.is(error)) {
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
