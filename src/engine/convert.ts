import * as core from "zod/v4/core";
import { clip, quote, REASON_LIMIT } from "../clip";
import { kindLabel, parseApiVersion } from "../protocol/api-version";
import type { KindDefinition } from "../registry/kind";
import type { Registry } from "../registry/registry";
import { servedKinds } from "../registry/registry";
import type { Route } from "../registry/routes";
import { describeObject } from "./describe";
import { isJsonObject, type JsonObject, jsonTypeName, privateMetadata } from "./json-values";
import { guardMetadata, sourceMetadataError } from "./metadata";
import { protoKeyValues, restoreProtoKeys } from "./proto-keys";
import { certainlyValid } from "./validate";

/** Why a batch failed; metrics and logs count failures by it. */
export type FailureCause =
  | "invalid-object"
  | "unknown-kind"
  | "unknown-version"
  | "schema-mismatch"
  | "converter-error"
  | "invalid-metadata"
  | "budget-exceeded"
  // Refused whole, before conversion (engine/limits.ts):
  | "too-many-objects"
  | "object-too-large";

export type BatchResult =
  | { ok: true; objects: JsonObject[] }
  // `thrown`, present when a converter threw or rejected: what it threw (the test kit tells a refusal from a bug by it).
  | { ok: false; cause: FailureCause; message: string; index?: number; thrown?: unknown };

export interface BatchOptions {
  /** Give up before this instant (in `now()` units, ms) rather than be killed mid-way. */
  deadline?: number;
  /** What the deadline stands for, for the message: the budget in ms. */
  budgetMs?: number;
  now?: () => number;
  /**
   * Whether the objects may hold keys named `__proto__` (engine/proto-keys.ts). The webhook
   * knows it from the body text; unset, every object is searched.
   */
  mayHoldProtoKeys?: boolean;
}

const BUDGET_EXCEEDED = Symbol("budget exceeded");

function withDeadline<T>(promise: Promise<T>, deadline: number | undefined, now: () => number): Promise<T> {
  if (deadline === undefined) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(BUDGET_EXCEEDED), Math.max(0, deadline - now()));
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

class ObjectFailure extends Error {
  constructor(
    readonly failure: FailureCause,
    message: string,
    readonly thrown?: { value: unknown },
  ) {
    super(message);
  }
}

type Fail = (cause: FailureCause, reason: string, thrown?: { value: unknown }) => never;

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
  const { deadline, now = Date.now, mayHoldProtoKeys = true } = options;
  const converted: JsonObject[] = new Array(objects.length);
  for (let index = 0; index < objects.length; index++) {
    const object = objects[index];
    if (deadline !== undefined && now() > deadline) {
      return {
        ok: false,
        cause: "budget-exceeded",
        index,
        message: budgetMessage(index, objects, desiredAPIVersion, options),
      };
    }
    try {
      const result = convertOne(
        registry,
        object,
        index,
        desiredAPIVersion,
        desired.group,
        desired.version,
        mayHoldProtoKeys,
      );
      // Await only what is really asynchronous: a microtask per object would cost more than
      // a typical converter. A converter that never settles still meets the deadline.
      converted[index] = result instanceof Promise ? await withDeadline(result, deadline, now) : result;
    } catch (error) {
      if (error === BUDGET_EXCEEDED) {
        return {
          ok: false,
          cause: "budget-exceeded",
          index,
          message: budgetMessage(index, objects, desiredAPIVersion, options),
        };
      }
      if (error instanceof ObjectFailure) {
        return {
          ok: false,
          cause: error.failure,
          index,
          message: error.message,
          ...(error.thrown ? { thrown: error.thrown.value } : {}),
        };
      }
      // Not a converter's error: most likely a stack overflow on absurdly deep input. Still a
      // Failure that names the object, never an HTTP 500 the user cannot read.
      const why =
        error instanceof RangeError ? "nested too deeply to convert" : `internal error: ${errorMessage(error)}`;
      return { ok: false, cause: "invalid-object", index, message: `${describeObject(index, object)}: ${why}` };
    }
  }
  return { ok: true, objects: converted };
}

function convertOne(
  registry: Registry,
  object: unknown,
  index: number,
  desiredAPIVersion: string,
  group: string,
  version: string,
  mayHoldProtoKeys: boolean,
): JsonObject | Promise<JsonObject> {
  if (!isJsonObject(object)) {
    throw new ObjectFailure("invalid-object", `object ${index} is not a JSON object but ${jsonTypeName(object)}`);
  }
  // Messages are built only on failure: this runs for every object.
  const who = () => describeObject(index, object);
  const { apiVersion, kind } = object;
  const source = typeof apiVersion === "string" ? parseApiVersion(apiVersion) : undefined;
  if (!source) {
    throw new ObjectFailure(
      "invalid-object",
      `${who()}: apiVersion ${shownApiVersion(apiVersion)}, expected group/version`,
    );
  }
  if (typeof kind !== "string" || kind.length === 0) {
    throw new ObjectFailure("invalid-object", `${who()}: kind is missing`);
  }
  const fail: Fail = (cause, reason, thrown) => {
    throw new ObjectFailure(
      cause,
      `${who()} ${clip(kind)} ${clip(String(apiVersion))} -> ${clip(desiredAPIVersion)}: ${reason}`,
      thrown,
    );
  };

  const original = object.metadata;
  // null is let through, answered with {} (see the metadata-guard tests: kubernetes#117356).
  if (original !== undefined && original !== null && !isJsonObject(original)) {
    fail("invalid-object", `metadata is ${jsonTypeName(original)}, not an object`);
  }
  const metadata = isJsonObject(original) ? original : undefined;
  const metadataIssue = metadata && sourceMetadataError(metadata);
  if (metadataIssue) fail("invalid-object", metadataIssue);

  if (source.group !== group)
    fail("unknown-kind", `cannot convert between API groups ${clip(source.group)} and ${clip(group)}`);
  const def = registry.lookup(group, kind);
  if (!def)
    fail(
      "unknown-kind",
      `this webhook has no converters for ${clip(kind)} in group ${clip(group)} (it serves ${served(registry)})`,
    );
  const kindDef = def!;
  const unknown = !kindDef.versions.has(source.version)
    ? source.version
    : !kindDef.versions.has(version)
      ? version
      : undefined;
  if (unknown)
    fail(
      "unknown-version",
      `${clip(unknown)} is not a version of ${kindLabel({ kind, group })} (known: ${[...kindDef.versions.keys()].join(", ")})`,
    );

  if (source.version === version) {
    // Nothing to convert: the apiserver does not normally send these, but answer correctly.
    return { ...object, apiVersion: desiredAPIVersion, metadata: metadata ?? {} };
  }

  const sourceIssue = schemaIssue(kindDef.versions.get(source.version)!, object);
  if (sourceIssue) fail("schema-mismatch", `does not match the ${source.version} schema: ${sourceIssue}`);

  // Converters get a private copy of the metadata: whatever they do to it, the original
  // survives to be restored.
  const input: JsonObject = { ...object, metadata: metadata ? privateMetadata(metadata) : {} };
  const finish = (result: unknown) => finishObject(result, kind, metadata, desiredAPIVersion, fail);
  const held = mayHoldProtoKeys ? protoKeyValues(input) : undefined;
  return runChain(kindDef, kindDef.route(source.version, version)!, 0, input, fail, finish, held);
}

function runChain(
  def: KindDefinition,
  steps: Route,
  first: number,
  input: unknown,
  fail: Fail,
  finish: (result: unknown) => JsonObject,
  held: Set<object> | undefined,
): JsonObject | Promise<JsonObject> {
  const multiHop = steps.length > 1;
  let current = input;
  for (let i = first; i < steps.length; i++) {
    const step = steps[i]!;
    const where = multiHop ? ` (in step ${step.from} -> ${step.to})` : "";
    let output: unknown;
    try {
      output = step.convert(current as never, { group: def.group, kind: def.kind, from: step.from, to: step.to });
    } catch (error) {
      fail("converter-error", `${errorMessage(error)}${where}`, { value: error });
    }
    if (output instanceof Promise) {
      // Go asynchronous only when a converter is: the rest of the chain continues after it.
      return output.then(
        (value) => {
          checkStep(value, step.to, step.schema, where, fail, held);
          return runChain(def, steps, i + 1, value, fail, finish, held);
        },
        (error) => fail("converter-error", `${errorMessage(error)}${where}`, { value: error }),
      );
    }
    checkStep(output, step.to, step.schema, where, fail, held);
    current = output;
  }
  return finish(current);
}

function checkStep(
  output: unknown,
  version: string,
  schema: core.$ZodType,
  where: string,
  fail: Fail,
  held: Set<object> | undefined,
): void {
  if (!isJsonObject(output)) {
    fail(
      "converter-error",
      `the converter returned ${output === null ? "null" : Array.isArray(output) ? "an array" : typeof output}, not an object${where}`,
    );
  }
  // Before the schema check, which would otherwise read the lost fields through the prototype.
  if (held) restoreProtoKeys(output, held);
  const issue = schemaIssue(schema, output);
  if (issue) fail("converter-error", `the converter's result does not match the ${version} schema: ${issue}${where}`);
}

function finishObject(
  result: unknown,
  kind: string,
  original: JsonObject | undefined,
  desiredAPIVersion: string,
  fail: Fail,
): JsonObject {
  const out = result as JsonObject;
  const guarded = guardMetadata(original, out.metadata);
  if ("error" in guarded) fail("invalid-metadata", guarded.error);
  out.apiVersion = desiredAPIVersion;
  out.kind = kind;
  out.metadata = (guarded as { metadata: JsonObject }).metadata;
  return out;
}

function schemaIssue(schema: core.$ZodType, value: unknown): string | undefined {
  if (certainlyValid(schema, value)) return undefined;
  const result = core.safeParse(schema, value);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  // The path may hold the object's own keys (a record's), the message its values (a refinement's).
  const path = issue.path.map(String).join(".");
  return clip(path ? `${path}: ${issue.message}` : issue.message, REASON_LIMIT);
}

function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return clip(error.message, REASON_LIMIT);
  if (typeof error === "string" && error) return clip(error, REASON_LIMIT);
  return clip(`the converter threw ${error instanceof Error ? error.name : String(error)}`, REASON_LIMIT);
}

/** A bad apiVersion as a message shows it: quoted, clipped, or said to be missing. */
function shownApiVersion(value: unknown): string {
  if (value === undefined) return "is missing";
  return typeof value === "string" ? quote(value) : clip(JSON.stringify(value));
}

function served(registry: Registry): string {
  return servedKinds(registry);
}

function budgetMessage(index: number, objects: readonly unknown[], desired: string, options: BatchOptions): string {
  const object = objects[index];
  const what = isJsonObject(object)
    ? ` (${clip(String(object.kind))} ${clip(String(object.apiVersion))} -> ${clip(desired)})`
    : "";
  const budget = options.budgetMs !== undefined ? `conversion budget of ${options.budgetMs} ms` : "conversion deadline";
  return `${budget} exceeded after ${index} of ${objects.length} objects${what}`;
}
