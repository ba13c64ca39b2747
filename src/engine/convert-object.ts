import type { GroupVersion } from "../protocol/api-version";
import type { Registry } from "../registry/registry";
import { runChain } from "./converter-chain";
import { isJsonObject, type JsonObject, privateMetadata } from "./json-values";
import { guardMetadata } from "./metadata";
import { checkSourceSchema, kindDefinition, kindOf, sourceMetadata, sourceVersion } from "./object-checks";
import { protoKeyValues } from "./proto-keys";

/**
 * One object's conversion, in two halves around the only part that may be asynchronous: its
 * checks and its chain of converters (`startObject`), then what the apiserver requires of the
 * result (`finishObject`). Both throw a ConversionFailure for an object that cannot be converted.
 */

/** The object's converted form, not yet finished: the last converter's output, or a promise of it. */
export function startObject(
  registry: Registry,
  object: JsonObject,
  desired: GroupVersion,
  mayHoldProtoKeys: boolean,
): JsonObject | Promise<JsonObject> {
  const source = sourceVersion(object);
  const kind = kindOf(object);
  const metadata = sourceMetadata(object);
  const definition = kindDefinition(registry, kind, source, desired);
  // Nothing to convert: the apiserver does not normally send these, but answer correctly.
  if (source.version === desired.version) return { ...object };

  checkSourceSchema(definition, source.version, object);
  // Converters get a private copy of the metadata: whatever they do to it, the original
  // survives to be restored.
  const input: JsonObject = { ...object, metadata: metadata ? privateMetadata(metadata) : {} };
  const held = mayHoldProtoKeys ? protoKeyValues(input) : undefined;
  return runChain(definition, definition.route(source.version, desired.version)!, 0, input, held);
}

/**
 * The converted object as the apiserver must receive it: the desired apiVersion, the kind it was
 * sent with, and its metadata restored but for labels and annotations (engine/metadata.ts).
 */
export function finishObject(converted: JsonObject, object: JsonObject, desiredAPIVersion: string): JsonObject {
  const original = object.metadata;
  const metadata = guardMetadata(isJsonObject(original) ? original : undefined, converted.metadata);
  converted.apiVersion = desiredAPIVersion;
  converted.kind = object.kind;
  converted.metadata = metadata;
  return converted;
}
