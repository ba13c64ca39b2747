import type { BodyShape } from "../protocol/body-scan";
import { encodeJson } from "../protocol/json";
import { utf8Length } from "../protocol/size";
import type { FailureCause } from "./convert";
import { describeObject } from "./describe";

export interface ReviewLimits {
  maxObjects: number;
  maxObjectBytes: number;
}

export interface LimitFailure {
  cause: FailureCause;
  message: string;
}

// Metadata larger than this is not read just to name an object refused for its size.
const METADATA_READ_LIMIT = 1024 * 1024;

/**
 * Why a review is refused as a whole, decided from the scan of its text before it is parsed:
 * too many objects, or one object too large (its size is that of its text, as sent).
 */
export function limitFailureBeforeParse(text: string, shape: BodyShape, limits: ReviewLimits): LimitFailure | undefined {
  const { objects } = shape;
  if (!objects) return undefined;
  if (objects.count > limits.maxObjects) return tooMany(objects.count, limits);
  const oversized = objects.oversized;
  if (!oversized) return undefined;
  const { metadata } = oversized;
  let named: unknown;
  if (metadata && metadata.end - metadata.start <= METADATA_READ_LIMIT) {
    try {
      named = { metadata: JSON.parse(text.slice(metadata.start, metadata.end)) };
    } catch {
      // Unreadable metadata: the object is named by its index alone.
    }
  }
  return tooLarge(oversized.index, named, oversized.bytes, limits);
}

/**
 * The same limits on the parsed objects: their number, and their size where the scan could not
 * tell which item was which object (a body spelling `request` or `objects` with escapes, or
 * repeating them). `shape` is undefined for a body too short for any object to exceed the limit.
 */
export function limitFailure(objects: readonly unknown[], shape: BodyShape | undefined, limits: ReviewLimits): LimitFailure | undefined {
  if (objects.length > limits.maxObjects) return tooMany(objects.length, limits);
  // UTF-8 takes at most three bytes per UTF-16 unit: shorter items cannot exceed the limit.
  if (!shape || shape.largestItem * 3 <= limits.maxObjectBytes || sizesScanned(shape, limits)) return undefined;
  for (let index = 0; index < objects.length; index++) {
    const bytes = utf8Length(encodeJson(objects[index]) ?? "");
    if (bytes > limits.maxObjectBytes) return tooLarge(index, objects[index], bytes, limits);
  }
  return undefined;
}

/** Whether the scan measured every item that might exceed the limit as an element of the one `request.objects`. */
function sizesScanned(shape: BodyShape, limits: ReviewLimits): boolean {
  return shape.objects !== undefined && shape.objectsArrays === 1 && shape.largestOtherItem * 3 <= limits.maxObjectBytes;
}

function tooMany(count: number, limits: ReviewLimits): LimitFailure {
  return {
    cause: "too-many-objects",
    message: `the review holds ${count} objects, over this webhook's limit of ${limits.maxObjects} per review (CRDSHIFT_MAX_OBJECTS)`,
  };
}

function tooLarge(index: number, object: unknown, bytes: number, limits: ReviewLimits): LimitFailure {
  return {
    cause: "object-too-large",
    message: `${describeObject(index, object)} is ${bytes} bytes, over this webhook's limit of ${limits.maxObjectBytes} per object (CRDSHIFT_MAX_OBJECT_BYTES)`,
  };
}
