/**
 * The words for how a request ends, named once: logs, metrics and the README's tables use these
 * (test/outcomes.test.ts holds the README to them). A new cause or reason is a line here, the
 * place that raises it, and a row in the README.
 */

/** Why a review was answered with `Failure` (still HTTP 200; the apiserver shows the message to its users). */
export const FAILURE_CAUSES = [
  /** A converter threw or rejected, returned a non-object, or a result its target schema refuses. */
  "converter-error",
  /** An object does not match its source version's schema. */
  "schema-mismatch",
  /** No such kind in that group, or a change of group. */
  "unknown-kind",
  /** `desiredAPIVersion` is not `group/version`, or a version the kind lacks. */
  "unknown-version",
  /** Not an object, no `apiVersion` or `kind`, malformed metadata, or too deep to convert. */
  "invalid-object",
  /** A converter set labels or annotations the apiserver would refuse. */
  "invalid-metadata",
  /** The review ran past its time budget. */
  "budget-exceeded",
  /** More objects than CRDSHIFT_MAX_OBJECTS. */
  "too-many-objects",
  /** An object over CRDSHIFT_MAX_OBJECT_BYTES. */
  "object-too-large",
  /** A reply over CRDSHIFT_REPLY_LIMIT_BYTES. */
  "reply-too-large",
  /** crdshift's own bug: something crdshift's code threw, never the user's converter, schema or object. */
  "internal-error",
] as const;

export type FailureCause = (typeof FAILURE_CAUSES)[number];

/** Why a request was refused before it was a review (a 4xx with a short JSON error). */
export const REJECTION_REASONS = [
  /** An unknown path or a wrong token. */
  "not-found",
  /** A caller outside CRDSHIFT_ALLOWED_SOURCES. */
  "source-not-allowed",
  /** Not POST. */
  "method-not-allowed",
  /** Not a JSON content type. */
  "unsupported-media-type",
  /** A body over CRDSHIFT_BODY_LIMIT_BYTES. */
  "too-large",
  /** No room under CRDSHIFT_MAX_BYTES_IN_FLIGHT in time: a 429 with Retry-After. */
  "busy",
  /** An upload cut short or malformed in transit. */
  "body-unreadable",
  /** A body nested deeper than CRDSHIFT_MAX_DEPTH. */
  "too-deep",
  /** A body that is not JSON. */
  "invalid-json",
  /** JSON that is not a ConversionReview request. */
  "invalid-review",
] as const;

export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** A conversion that did not happen: the message names the object and what was wrong. */
export interface Failure {
  cause: FailureCause;
  message: string;
}

/** A request refused before it was a review. */
export interface Rejection {
  reason: RejectionReason;
  message: string;
}

/**
 * The one shape of an outcome: `{ ok: true, ...what it made }` or `{ ok: false, ...why not }`
 * (a `Failure`, a `Rejection`), told apart by `ok` alone.
 */
export type Result<Made, Why> = ({ ok: true } & Made) | ({ ok: false } & Why);
