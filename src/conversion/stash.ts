import { decodeJson, encodeJson, isJsonObject, utf8Length } from "../json";
import { ANNOTATIONS_MAX_BYTES } from "../kube";
/**
 * Lossless round trips for fields an older version has no place for: on the way down they are
 * kept in an annotation, on the way up they are put back and the annotation removed. Opt-in, in
 * the converters of a kind:
 *
 *   v1: { v1beta1: ({ protocol, ...rest }) => stashFields(toV1beta1(rest), { protocol }) }
 *   v1beta1: { v1: (object) => { const { object: rest, fields } = unstashFields(object); ... } }
 *
 * The annotation travels with the object through any version in between (converters keep
 * metadata), and it counts against the apiserver's 256 KiB budget for all annotations. Values are
 * written and read as the webhook's own JSON: integers beyond ±2^53 (bigint) stay exact.
 */
export const STASH_ANNOTATION = "crdshift.io/stash";

type Annotated = { metadata?: unknown };

/** `object` with `fields` (those not undefined) added to its stash annotation. */
export function stashFields<T extends object>(
  object: T,
  fields: Record<string, unknown>,
  annotation = STASH_ANNOTATION,
): T {
  const kept = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (kept.length === 0) return object;
  const metadata = record((object as Annotated).metadata);
  const annotations = stringRecord(metadata.annotations);
  const stash = { ...readStash(annotations[annotation], annotation), ...Object.fromEntries(kept) };
  const next = { ...annotations, [annotation]: encodeJson(stash) };
  const bytes = Object.entries(next).reduce((sum, [key, value]) => sum + utf8Length(key) + utf8Length(value), 0);
  if (bytes > ANNOTATIONS_MAX_BYTES) {
    throw new Error(
      `cannot keep ${kept.map(([name]) => name).join(", ")} for the way back: the annotations would take ${bytes} bytes, over the apiserver's limit of ${ANNOTATIONS_MAX_BYTES}`,
    );
  }
  return { ...object, metadata: { ...metadata, annotations: next } };
}

/** The stashed fields, and `object` without the annotation (an emptied map is sent as `{}`, which clears it). */
export function unstashFields<T extends object>(
  object: T,
  annotation = STASH_ANNOTATION,
): { object: T; fields: Record<string, unknown> } {
  const metadata = record((object as Annotated).metadata);
  const annotations = stringRecord(metadata.annotations);
  if (!(annotation in annotations)) return { object, fields: {} };
  const { [annotation]: raw, ...rest } = annotations;
  const fields = readStash(raw, annotation);
  return { object: { ...object, metadata: { ...metadata, annotations: rest } }, fields };
}

function readStash(raw: string | undefined, annotation: string): Record<string, unknown> {
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = decodeJson(raw).value;
  } catch {
    throw new Error(`annotation ${annotation} is not the JSON crdshift wrote; was it edited by hand?`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`annotation ${annotation} is not the JSON object crdshift wrote; was it edited by hand?`);
  }
  return value as Record<string, unknown>;
}

function record(value: unknown): Record<string, unknown> {
  return isJsonObject(value) ? value : {};
}

function stringRecord(value: unknown): Record<string, string> {
  return record(value) as Record<string, string>;
}
