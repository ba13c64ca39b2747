import type { GroupVersion } from "../kube";
import type { KindDefinition } from "./kind";
import type { Registry } from "./registry";
import type { Route } from "./routes";
import { runChain } from "./converter-chain";
import { isJsonObject, type JsonObject, protoKeyValues } from "../json";
import { ConvertedMaps, guardMaps, guardMetadata, privateMetadata } from "./metadata-guard";
import { checkSourceSchema, kindDefinition, kindOf, sourceMetadata, sourceVersion } from "./object-checks";
import { DEFAULT_MAX_DEPTH } from "./result-walk";
import { DEFAULT_MAX_OBJECT_BYTES, type ResultLimits } from "./result-budget";

const DEFAULT_RESULT_LIMITS: ResultLimits = { maxDepth: DEFAULT_MAX_DEPTH, maxBytes: DEFAULT_MAX_OBJECT_BYTES };

/**
 * One object's conversion, in two halves around the only part that may be asynchronous: its
 * checks and its chain of converters (`startObject`), then what the apiserver requires of the
 * result (`finishObject`). Both throw a ConversionFailure for an object that cannot be converted.
 */

/**
 * What the last object of a batch resolved its apiVersion and kind to. Both checks and the
 * lookup depend on those two strings alone (and on the batch's registry and desired version),
 * and the objects of a review almost always share them: the next object with the same two
 * reuses the answer instead of parsing and looking up again.
 */
export interface KindMemo {
  apiVersion?: string;
  kind?: string;
  source?: GroupVersion;
  definition?: KindDefinition;
  route?: Route;
}

/** The object's converted form, not yet finished: the last converter's output, or a promise of it. */
export function startObject(
  registry: Registry,
  object: JsonObject,
  desired: GroupVersion,
  mayHoldProtoKeys: boolean,
  memo: KindMemo = {},
  limits: ResultLimits = DEFAULT_RESULT_LIMITS,
): JsonObject | Promise<JsonObject> {
  let source: GroupVersion;
  let definition: KindDefinition;
  let metadata: JsonObject | undefined;
  if (memo.definition !== undefined && object.apiVersion === memo.apiVersion && object.kind === memo.kind) {
    source = memo.source!;
    definition = memo.definition;
    metadata = sourceMetadata(object);
  } else {
    // In this order: the message of the first check an object fails is the one it gets.
    source = sourceVersion(object);
    const kind = kindOf(object);
    metadata = sourceMetadata(object);
    definition = kindDefinition(registry, kind, source, desired);
    memo.apiVersion = object.apiVersion as string;
    memo.kind = kind;
    memo.source = source;
    memo.definition = definition;
    memo.route = source.version === desired.version ? undefined : definition.route(source.version, desired.version);
  }
  // Nothing to convert: the apiserver does not normally send these, but answer correctly.
  if (source.version === desired.version) return { ...object };

  checkSourceSchema(definition, source.version, object);
  // Converters get a private copy of the metadata: whatever they do to it, the original
  // survives to be restored.
  const input: JsonObject = { ...object, metadata: metadata ? privateMetadata(metadata) : {} };
  const held = mayHoldProtoKeys ? protoKeyValues(input) : undefined;
  return runChain(definition, memo.route!, 0, input, held, limits);
}

/**
 * The converted object as the apiserver must receive it: the desired apiVersion, the kind it was
 * sent with, and its metadata restored but for labels and annotations (metadata-guard.ts).
 * Written in place: `converted` is crdshift's own copy of what the converter returned
 * (converter-result.ts), never the converter's object.
 */
export function finishObject(converted: JsonObject, object: JsonObject, desiredAPIVersion: string): JsonObject {
  const original = object.metadata;
  const own = isJsonObject(original) ? original : undefined;
  const from = converted.metadata;
  const metadata = from instanceof ConvertedMaps ? guardMaps(own, from) : guardMetadata(own, from);
  converted.apiVersion = desiredAPIVersion;
  converted.kind = object.kind;
  converted.metadata = metadata;
  return converted;
}
