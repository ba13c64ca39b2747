import { utf8Length } from "../protocol/size";
import type { BodyShape } from "../protocol/shape";
import type { FailureCause } from "./convert";
import { describeObject } from "./describe";

export interface ReviewLimits {
  maxObjects: number;
  maxObjectBytes: number;
}

/**
 * Why a review is refused as a whole before any conversion, as a Failure the apiserver shows:
 * too many objects, or one object too large. The per-object size is only measured when the
 * body's shape says some item might exceed the limit.
 */
export function limitFailure(objects: readonly unknown[], shape: BodyShape, limits: ReviewLimits): { cause: FailureCause; message: string } | undefined {
  if (objects.length > limits.maxObjects) {
    return {
      cause: "too-many-objects",
      message: `the review holds ${objects.length} objects, over this webhook's limit of ${limits.maxObjects} per review (CRDSHIFT_MAX_OBJECTS)`,
    };
  }
  // UTF-8 takes at most three bytes per UTF-16 unit: below a third of the limit, nothing can exceed it.
  if (shape.largestItem * 3 <= limits.maxObjectBytes) return undefined;
  for (let index = 0; index < objects.length; index++) {
    const bytes = utf8Length(JSON.stringify(objects[index], (_key, value) => (typeof value === "bigint" ? 0 : value)) ?? "");
    if (bytes > limits.maxObjectBytes) {
      return {
        cause: "object-too-large",
        message: `${describeObject(index, objects[index])} is ${bytes} bytes, over this webhook's limit of ${limits.maxObjectBytes} per object (CRDSHIFT_MAX_OBJECT_BYTES)`,
      };
    }
  }
  return undefined;
}
