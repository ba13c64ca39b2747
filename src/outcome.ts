/**
 * The words for how a request ends, named once: logs, metrics and docs/metrics.md's tables use these
 * (test/outcome.test.ts holds those tables to them). A new code or reason is a line here, the
 * place that raises it, and a row in docs/metrics.md.
 *
 * Two endings, never confused: a review answered with a `Failure` (HTTP 200: the apiserver
 * shows its message to users) and a request rejected before it was a review (a `Rejection`,
 * 4xx). Code decides by `cause`, `code` and `reason`, never by a message's words: messages are
 * for people, built where the facts they name are (conversion/failure-messages.ts and the
 * checks that raise each code; server/admission.ts for rejections).
 */

/** Why a review was answered with `Failure` (still HTTP 200; the apiserver shows the message to its users). */
export const FAILURE_CAUSES = [
  /** A converter threw or rejected, returned a non-object, a result too large or too slow to read, or one its target schema refuses. */
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
  /** A review that would hold more memory than CRDSHIFT_MAX_BYTES_IN_FLIGHT, estimated from its body. */
  "review-too-large",
  /** crdshift's own bug: something crdshift's code threw, never the user's converter, schema or object. */
  "internal-error",
] as const;

export type FailureCause = (typeof FAILURE_CAUSES)[number];

/**
 * What exactly failed, for code that acts on a failure (the test kit, the CLI), each under the
 * one cause it belongs to. A cause with a single code uses its own name.
 */
export const FAILURE_CODES = {
  /** A converter threw or its promise rejected (the failure holds what it threw). */
  "converter-threw": "converter-error",
  /** A converter returned null, an array or a primitive. */
  "result-not-object": "converter-error",
  /** A converter's result holds what JSON cannot carry or what could not be read (NaN, a cycle, a getter that throws). */
  "result-unreadable": "converter-error",
  /** A converter's result larger than CRDSHIFT_MAX_OBJECT_BYTES as JSON, an object counted at every place it appears. */
  "result-too-large": "converter-error",
  /** A converter's result still being read (its getters, toJSON methods, proxies) when the review's time ran out. */
  "result-too-slow": "converter-error",
  /** A converter's result does not match its target version's schema. */
  "result-schema-mismatch": "converter-error",
  /** A converter's result could not be written as JSON (its shared managedFields). */
  "result-unprintable": "converter-error",
  /** An object does not match its source version's schema. */
  "schema-mismatch": "schema-mismatch",
  /** An object of one API group asked for in another. */
  "group-changed": "unknown-kind",
  /** No converters for the object's kind in its group. */
  "kind-not-served": "unknown-kind",
  /** `desiredAPIVersion` is not of the form `group/version`. */
  "desired-version-malformed": "unknown-version",
  /** The object's version or the desired one is not a version of the kind. */
  "version-not-served": "unknown-version",
  /** An element of `request.objects` that is not a JSON object. */
  "not-an-object": "invalid-object",
  /** An apiVersion missing or not of the form `group/version`. */
  "api-version-invalid": "invalid-object",
  /** No kind, or an empty one. */
  "kind-missing": "invalid-object",
  /** Metadata no apiserver could have sent (not an object, a name that is not a string, …). */
  "metadata-invalid": "invalid-object",
  /** An object nested too deeply to convert. */
  "nested-too-deeply": "invalid-object",
  /** A number no 64-bit float holds (`1e400`). */
  "number-out-of-range": "invalid-object",
  /** A converter set labels the apiserver would refuse. */
  "labels-invalid": "invalid-metadata",
  /** A converter set annotations the apiserver would refuse. */
  "annotations-invalid": "invalid-metadata",
  "budget-exceeded": "budget-exceeded",
  "too-many-objects": "too-many-objects",
  "object-too-large": "object-too-large",
  "reply-too-large": "reply-too-large",
  "review-too-large": "review-too-large",
  "internal-error": "internal-error",
} as const satisfies Record<string, FailureCause>;

export type FailureCode = keyof typeof FAILURE_CODES;

/** Why a request was rejected before it was a review (a 4xx with a short JSON error). */
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
  /** No room under CRDSHIFT_MAX_BYTES_IN_FLIGHT (memory held by reviews at once) in time: a 429 with Retry-After. */
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

/** The HTTP status of each rejection: one per reason, so that no caller picks its own. */
export const REJECTION_STATUS = {
  "not-found": 404,
  // As an unknown path: nothing is revealed to a caller outside the allowed networks.
  "source-not-allowed": 404,
  "method-not-allowed": 405,
  "unsupported-media-type": 415,
  "too-large": 413,
  busy: 429,
  "body-unreadable": 400,
  "too-deep": 400,
  "invalid-json": 400,
  "invalid-review": 400,
} as const satisfies Record<RejectionReason, number>;

/** A conversion that did not happen: the message names the object and what was wrong. */
export interface Failure {
  cause: FailureCause;
  code: FailureCode;
  message: string;
}

/** A failure of `code`, under its cause. */
export function failureOf(code: FailureCode, message: string): Failure {
  return { cause: FAILURE_CODES[code], code, message };
}

/** A request rejected before it was a review: its status is REJECTION_STATUS[reason]. */
export interface Rejection {
  reason: RejectionReason;
  /** The error the caller reads. */
  message: string;
  headers?: Readonly<Record<string, string>>;
  /** What only the log needs. */
  detail?: string;
}

/**
 * The one shape of an outcome: `{ ok: true, ...what it made }` or `{ ok: false, ...why not }`
 * (a `Failure`, a `Rejection`, an error in words), told apart by `ok` alone.
 */
export type Result<Made, Why> = ({ ok: true } & Made) | ({ ok: false } & Why);
