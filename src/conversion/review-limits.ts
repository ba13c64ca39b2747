import { type Failure, failureOf } from "../outcome";
import type { BodyShape } from "../json";
import { describeObject } from "./describe";
import { heldAtLeast, heldAtMost, heldByShape } from "./held-memory";

/** What one review may be: checked before any conversion (the reply's size, after). */
export interface ReviewLimits {
  /** Levels of nesting in the body (CRDSHIFT_MAX_DEPTH). */
  maxDepth: number;
  /** Objects per review (CRDSHIFT_MAX_OBJECTS). */
  maxObjects: number;
  /** UTF-8 bytes of one object's text (CRDSHIFT_MAX_OBJECT_BYTES). */
  maxObjectBytes: number;
  /** Bytes of the reply, where the platform caps it (CRDSHIFT_REPLY_LIMIT_BYTES). */
  replyLimitBytes?: number | undefined;
  /**
   * Memory one review may hold, as held-memory.ts estimates it from the body
   * (CRDSHIFT_MAX_BYTES_IN_FLIGHT: a review must fit the server's cap alone). Unset: no bound.
   */
  maxBytesInFlight?: number | undefined;
}

/**
 * Largest body parsed before it is scanned. Parsing is what costs (V8 builds every node of the
 * tree): up to this size it costs little even when the body is then refused, and saves the scan,
 * a sizeable share of the engine's time on a typical review (docs/performance.md).
 */
const PARSE_FIRST_LIMIT = 1024 * 1024;

/**
 * Whether a body of `length` UTF-16 units (or fewer) is parsed before any scan: too short for
 * any of its objects to exceed the size limit (UTF-8 takes at most three bytes per unit) and
 * short enough to parse whatever it holds. Longer ones are scanned first, and their limits and
 * the memory they will hold decided from the scan.
 */
export function parsedFirst(length: number, limits: ReviewLimits): boolean {
  return length <= PARSE_FIRST_LIMIT && length * 3 <= limits.maxObjectBytes;
}

/**
 * The memory a body parsed first may hold, whatever its shape, as much as a review may take at
 * most: such a body is short, and a dense one runs alone rather than fail.
 */
export function heldUnscanned(length: number, limits: ReviewLimits): number {
  return Math.min(heldAtMost(length), limits.maxBytesInFlight ?? Infinity);
}

/**
 * What a request of `bodyBytes` is counted as holding before its body is read (one without a
 * length: as it streams in, `heldAtLeast` per chunk): the engine then asks for what the body
 * turned out to hold (BodyOptions.hold). For a body parsed first, all it may hold, so that a
 * read admitted is never turned away once read; for a longer one, the least it holds, which the
 * scan of its text corrects before its tree is built.
 */
export function heldBeforeRead(bodyBytes: number, limits: ReviewLimits): number {
  // UTF-8 takes at least one byte per UTF-16 unit: the text is no longer than the body's bytes.
  return parsedFirst(bodyBytes, limits) ? heldUnscanned(bodyBytes, limits) : heldAtLeast(bodyBytes);
}

// Metadata larger than this is not read just to name an object failed for its size.
const METADATA_READ_LIMIT = 1024 * 1024;

/**
 * Most a review may hold besides its objects, in UTF-16 units of text. An apiserver's review
 * has a few hundred bytes there (uid, versions, an empty response); a large envelope would be
 * parsed whole though no limit counts it, holding the event loop for as long as it takes
 * (`npm run bench:blocking` measures what one body can cost).
 */
const ENVELOPE_LIMIT = 64 * 1024;

/**
 * Why a scanned body is not a review as an apiserver writes one, or undefined: `request.objects`
 * missing (or spelled with escapes), repeated, or much beside it. Only bodies too large to
 * parse first are scanned, and these limits are what lets the scan speak for the whole review.
 */
export function envelopeProblem(text: string, shape: BodyShape): string | undefined {
  const { objects } = shape;
  if (!objects || objects.end < 0) return "no request.objects array found (with its keys spelled plainly)";
  if (shape.objectsArrays > 1) return "request.objects appears more than once";
  const outside = text.length - (objects.end + 1 - objects.start);
  if (outside > ENVELOPE_LIMIT)
    return `${outside} characters outside request.objects, over the ${ENVELOPE_LIMIT} a review's envelope may take`;
  return undefined;
}

/**
 * Why a review fails as a whole, decided from the scan of its text before it is parsed:
 * too many objects, one object too large (its size is that of its text, as sent), or more
 * memory held than the review may take.
 */
export function limitFailureBeforeParse(text: string, shape: BodyShape, limits: ReviewLimits): Failure | undefined {
  const { objects } = shape;
  if (!objects) return undefined;
  if (objects.count > limits.maxObjects) return tooMany(objects.count, limits);
  const oversized = objects.oversized;
  if (!oversized) return holdsTooMuch(text, shape, limits);
  const { metadata } = oversized;
  let named: unknown;
  if (metadata && metadata.end - metadata.start <= METADATA_READ_LIMIT) {
    try {
      named = { metadata: JSON.parse(text.slice(metadata.start, metadata.end)) };
    } catch {
      // Unreadable metadata: the object is named by its index alone.
    }
  }
  return objectTooLarge(oversized.index, named, oversized.bytes, limits);
}

/**
 * The objects limit on the parsed objects, for a body parsed before any scan: one too short
 * for any object in it to exceed the size limit.
 */
export function limitFailure(objects: readonly unknown[], limits: ReviewLimits): Failure | undefined {
  return objects.length > limits.maxObjects ? tooMany(objects.length, limits) : undefined;
}

function holdsTooMuch(text: string, shape: BodyShape, { maxBytesInFlight }: ReviewLimits): Failure | undefined {
  const held = heldByShape(text.length, shape);
  if (maxBytesInFlight === undefined || held <= maxBytesInFlight) return undefined;
  return failureOf(
    "review-too-large",
    `the review would hold about ${mebibytes(held)} MiB while converted (${shape.containers} objects and arrays in ${text.length} characters), ` +
      `over this webhook's limit of ${mebibytes(maxBytesInFlight)} MiB (CRDSHIFT_MAX_BYTES_IN_FLIGHT); a LIST in smaller pages (kubectl --chunk-size, the API's limit) sends fewer objects per review`,
  );
}

function mebibytes(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

function tooMany(count: number, limits: ReviewLimits): Failure {
  return failureOf(
    "too-many-objects",
    `the review holds ${count} objects, over this webhook's limit of ${limits.maxObjects} per review (CRDSHIFT_MAX_OBJECTS)`,
  );
}

function objectTooLarge(index: number, object: unknown, bytes: number, limits: ReviewLimits): Failure {
  return failureOf(
    "object-too-large",
    `${describeObject(index, object)} is ${bytes} bytes, over this webhook's limit of ${limits.maxObjectBytes} per object (CRDSHIFT_MAX_OBJECT_BYTES)`,
  );
}
