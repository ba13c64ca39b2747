import type { ConversionReview, ConversionReviewReply } from "./review-schema";

/**
 * Replies always carry the review's own apiVersion and uid: the apiserver rejects a reply in
 * the other review version ("unknown conversion") and, for v1, one with another uid.
 */
export function successReply(review: ConversionReview, convertedObjects: unknown[]): ConversionReviewReply {
  return {
    apiVersion: review.apiVersion,
    kind: "ConversionReview",
    response: { uid: review.request.uid, result: { status: "Success" }, convertedObjects },
  };
}

/** A failed conversion is still HTTP 200; `message` reaches `kubectl` users verbatim. */
export function failureReply(review: ConversionReview, message: string): ConversionReviewReply {
  return {
    apiVersion: review.apiVersion,
    kind: "ConversionReview",
    response: { uid: review.request.uid, result: { status: "Failure", message } },
  };
}
