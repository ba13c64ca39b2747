import { isJsonObject, JsonError, syntaxErrorMessage } from "../json";

/** Where a scanned body's `request.objects` lies: its brackets and the commas between its elements. */
export interface ObjectsPlaces {
  start: number;
  end: number;
  count: number;
  commas: readonly number[];
}

/**
 * The elements of a large body's `request.objects`, each decoded from its own stretch of the text
 * when the batch reaches it, rather than all at once: the review then never holds the whole
 * tree, only the object being converted (docs/performance.md: memory a review holds). In
 * `outline`, each element decoded leaves what failure messages and the report read of it
 * (apiVersion, kind, names: `outlineOf`), in its place. Throws the JsonError the whole body would
 * have, for an element that is not JSON.
 */
export function objectsOneByOne(text: string, places: ObjectsPlaces, outline: unknown[]): (index: number) => unknown {
  const { start, end, commas } = places;
  return (index) => {
    const from = index === 0 ? start + 1 : commas[index - 1]! + 1;
    const to = index === commas.length ? end : commas[index]!;
    let object: unknown;
    try {
      object = JSON.parse(text.slice(from, to));
    } catch {
      // Said as the whole body's parse says it: where in the body, quoting nothing of it.
      throw new JsonError(syntaxErrorMessage(text) ?? "body is not valid JSON");
    }
    outline[index] = outlineOf(object);
    return object;
  };
}

/**
 * What is kept of an object once converted: the fields that name it in failure messages, logs
 * and metrics (describe.ts, failure-messages.ts, review-summary.ts), as they were.
 */
function outlineOf(object: unknown): unknown {
  if (!isJsonObject(object)) return Array.isArray(object) ? [] : object;
  const { apiVersion, kind, metadata } = object;
  return {
    apiVersion,
    kind,
    metadata: isJsonObject(metadata)
      ? { name: metadata.name, namespace: metadata.namespace, uid: metadata.uid }
      : metadata,
  };
}
