import { type Failure, type FailureCode, failureOf, type Rejection, type Result } from "../outcome";
import {
  scanBody,
  type Decoded,
  decodeJson,
  decodeWithShape,
  encodeJson,
  JsonError,
  OutOfRange,
  syntaxErrorMessage,
  exceedsEmbedded,
  holdsValue,
  isJsonObject,
  type JsonObject,
  mayHoldProtoKey,
} from "../json";
import { failureReply, successReply, type ConversionReview, parseReview } from "../kube";
import type { Registry } from "./registry";
import { type BatchOptions, type BatchResult, convertObjects } from "./convert-batch";
import type { TimeBudget } from "./time-budget";
import { describeObject } from "./describe";
import { thrownText } from "./failure-messages";
import { isInstance, textField } from "./thrown-value";
import {
  envelopeProblem,
  heldUnscanned,
  limitFailure,
  limitFailureBeforeParse,
  parsedFirst,
  type ReviewLimits,
} from "./review-limits";
import { heldByShape } from "./held-memory";
import { printReply, type PrintedReply, type ReplyBytes, replyText } from "./printed-reply";
import { objectsOneByOne, type ObjectsPlaces } from "./objects-one-by-one";
import { turnsAlong } from "./event-loop-turns";

export interface BodyOptions {
  limits: ReviewLimits;
  budget?: TimeBudget | undefined;
  /**
   * Asked once, before the body's tree is built, for the memory the review will hold
   * (held-memory.ts): false if there is no room for it now, and the body is answered `busy`
   * unread. The server counts it against CRDSHIFT_MAX_BYTES_IN_FLIGHT.
   */
  hold?: ((heldBytes: number) => boolean) | undefined;
}

/**
 * What a request body comes to: a review, answered with the reply in `text` (a Failure reply
 * when `failure` is set), or a rejection before it was a review. A large review's reply is
 * printed as bytes (printed-reply.ts), in `bytes`: `text` is then decoded from them when first
 * read, so that a server writing the bytes never builds the string.
 */
export type BodyOutcome = Result<Reviewed, Rejection>;

interface Reviewed {
  review: ConversionReview;
  text: string;
  bytes?: ReplyBytes;
  failure?: Failure;
}

/**
 * The whole of the webhook's work on one body, without HTTP: shape check, decode, envelope,
 * limits, conversion, encoding. The app adds routes, logs and metrics around it; the benchmark
 * measures exactly this.
 */
export async function convertBody(registry: Registry, text: string, options: BodyOptions): Promise<BodyOutcome> {
  const { limits } = options;
  const read = parseBody(text, limits, options.hold);
  if (!read.ok) return read;
  const { decoded } = read;
  const parsed = parseReview(decoded.value);
  if (!parsed.ok) {
    // Only the envelope was decoded: a body that is not JSON is said to be that, as when decoded whole.
    const broken = read.places && syntaxErrorMessage(text);
    return broken ? { ok: false, reason: "invalid-json", message: broken } : parsed;
  }
  const { review } = parsed;
  const { request } = review;
  // A large body's objects are decoded one at a time as they convert (objects-one-by-one.ts),
  // `request.objects` keeping what names each.
  const decode = read.places
    ? objectsOneByOne(text, read.places, (request.objects = new Array(read.places.count)))
    : undefined;
  const failure =
    read.limitFailure ??
    limitFailure(request.objects, limits) ??
    (decoded.outOfRange ? outOfRangeFailure(request.objects) : undefined);
  const deep = read.depth > NATIVE_PRINT_DEPTH;
  // A large body's reply is printed as its objects convert (printed-reply.ts says why); a small
  // one's in one call, which is quicker for a handful of objects.
  const printed = read.scanned && !failure ? printReply(review, decoded.lossless, deep) : undefined;
  let result: BatchResult;
  try {
    if (failure) result = { ok: false, ...failure };
    else {
      const batch: BatchOptions = {
        budget: options.budget,
        mayHoldProtoKeys: read.protoKeys ?? mayHoldProtoKey(text),
        maxDepth: limits.maxDepth,
        maxObjectBytes: limits.maxObjectBytes,
      };
      // Set only when there are: a spread of `{}` costs every review more than the assignment.
      if (printed) batch.take = printed.take;
      if (decode) {
        batch.decode = decode;
        batch.pause = turnsAlong(read.places!);
      }
      result = await convertObjects(registry, request.desiredAPIVersion, request.objects, batch);
    }
    // The objects a failure left undecoded: a body that is not JSON is refused as ever, and the
    // report names every object.
    if (decode)
      for (let index = 0; index < request.objects.length; index++) if (!(index in request.objects)) decode(index);
  } catch (error) {
    if (error instanceof JsonError) return { ok: false, reason: "invalid-json", message: error.message };
    throw error;
  }
  const reply = encodeReply(review, result, printed, decoded.lossless, deep, limits.replyLimitBytes);
  // The fields written out: a spread of `reply` costs every review more.
  if (!("bytes" in reply))
    return reply.failure
      ? { ok: true, review, text: reply.text, failure: reply.failure }
      : { ok: true, review, text: reply.text };
  const { bytes } = reply;
  let printedText: string | undefined;
  return {
    ok: true,
    review,
    bytes,
    get text() {
      return (printedText ??= replyText(bytes));
    },
  };
}

/**
 * A parsed body, how deep it nests (0: too short to matter), the failure of a limit decided
 * before parsing (`decoded` is then the envelope alone), and, when the parsed tree was walked,
 * whether a key in it is named `__proto__` (undefined: not walked, the text tells).
 */
interface Read {
  decoded: Decoded;
  depth: number;
  limitFailure: Failure | undefined;
  protoKeys?: boolean;
  /** Scanned before it was parsed: a large body. */
  scanned?: boolean;
  /** Where its objects lie, when only the envelope was decoded and they are decoded one at a time. */
  places?: ObjectsPlaces;
}

/**
 * Deeper than this, replies are printed iteratively: V8's JSON.stringify checks each level
 * against all those above it, so its time grows with the square of the depth (and a few
 * thousand levels down it runs out of stack).
 */
const NATIVE_PRINT_DEPTH = 500;

// Out-of-range numbers are marked, for the object holding one to fail, named.
const DECODE = { outOfRange: "mark" } as const;
const DECODE_PLAIN = { outOfRange: "mark", carefulNumbers: false } as const;
const DECODE_CAREFUL = { outOfRange: "mark", carefulNumbers: true } as const;

/**
 * Parses the body, enforcing the depth limit and, for a body that could exceed them, the
 * objects, size and memory limits before the tree is built. A small body is parsed first (its
 * numbers that need care found by json/codec.ts) and its depth read from the tree; any other is
 * scanned first: over a limit, only the review's envelope is parsed, to answer it. `hold` is
 * asked for the memory the review will hold before its tree is built.
 */
function parseBody(text: string, limits: ReviewLimits, hold: BodyOptions["hold"]): Result<Read, Rejection> {
  try {
    if (parsedFirst(text.length, limits)) {
      if (hold && !hold(heldUnscanned(text.length, limits))) return NO_ROOM;
      // Each level takes two characters: a body this short nests less than the limit, and too
      // little to keep JSON.stringify long (NATIVE_PRINT_DEPTH says why depth matters there).
      if (text.length <= 2 * Math.min(limits.maxDepth, 10_000))
        return { ok: true, decoded: decodeJson(text, DECODE), depth: 0, limitFailure: undefined };
      // The walk that measures the depth also finds any `__proto__` key, which saves searching
      // the text for one (and its escaped spellings), and numbers JSON.parse may have changed.
      const { decoded: walked, shape } = decodeWithShape(text, DECODE);
      const { depth, protoKey } = shape;
      return depth > limits.maxDepth
        ? tooDeep(depth, limits.maxDepth)
        : { ok: true, decoded: walked, depth, limitFailure: undefined, protoKeys: protoKey };
    }
    const shape = scanBody(text, limits.maxObjectBytes, limits.maxObjects);
    if (shape.depth > limits.maxDepth) return tooDeep(shape.depth, limits.maxDepth);
    const unusual = envelopeProblem(text, shape);
    if (unusual) {
      // Text that is not JSON at all is said to be that.
      const broken = syntaxErrorMessage(text);
      if (broken) return { ok: false, reason: "invalid-json", message: broken };
      return {
        ok: false,
        reason: "invalid-review",
        message: `body is not a ConversionReview as an apiserver writes one: ${unusual}`,
      };
    }
    const overLimit = limitFailureBeforeParse(text, shape, limits);
    if (overLimit) {
      const { start, end } = shape.objects!;
      const envelope = decodeJson(`${text.slice(0, start)}[]${text.slice(end + 1)}`, DECODE);
      return { ok: true, decoded: envelope, depth: 0, limitFailure: overLimit };
    }
    if (hold && !hold(heldByShape(text.length, shape))) return NO_ROOM;
    const places = shape.objects!;
    // Numbers that need care are read over the whole text (json/codec.ts): such a body is decoded whole.
    if (!shape.carefulNumbers && places.commas.length === Math.max(0, places.count - 1)) {
      let envelope: Decoded;
      try {
        envelope = decodeJson(`${text.slice(0, places.start)}[]${text.slice(places.end + 1)}`, DECODE);
      } catch (error) {
        // Said where the whole body breaks, as its own parse would.
        if (error instanceof JsonError) throw new JsonError(syntaxErrorMessage(text) ?? error.message);
        throw error;
      }
      return {
        ok: true,
        decoded: envelope,
        depth: shape.depth,
        limitFailure: undefined,
        protoKeys: shape.protoKey,
        scanned: true,
        places,
      };
    }
    return {
      ok: true,
      decoded: decodeJson(text, shape.carefulNumbers ? DECODE_CAREFUL : DECODE_PLAIN),
      depth: shape.depth,
      limitFailure: undefined,
      protoKeys: shape.protoKey,
      scanned: true,
    };
  } catch (error) {
    if (error instanceof JsonError) return { ok: false, reason: "invalid-json", message: error.message };
    throw error;
  }
}

/** No room for the memory a review will hold: the server answers 429 with Retry-After. */
const NO_ROOM: Result<Read, Rejection> = {
  ok: false,
  reason: "busy",
  message: "too much memory is held by reviews being converted at once (CRDSHIFT_MAX_BYTES_IN_FLIGHT)",
};

function tooDeep(depth: number, limit: number): Result<Read, Rejection> {
  return {
    ok: false,
    reason: "too-deep",
    message: `body is nested ${depth} levels deep, over the limit of ${limit} (CRDSHIFT_MAX_DEPTH)`,
  };
}

/** A number no double holds (`1e400`) would come back changed: the object holding it fails, named. */
function outOfRangeFailure(objects: readonly unknown[]): Failure | undefined {
  const index = objects.findIndex((object) => holdsValue(object, (value) => value instanceof OutOfRange));
  if (index < 0) return undefined; // outside the objects: nothing sent back holds it
  return failureOf(
    "number-out-of-range",
    `${describeObject(index, objects[index])}: holds a number beyond the range of a 64-bit float (such as 1e400 or 1e-400), which would not come back unchanged; the apiserver never sends one`,
  );
}

function encodeReply(
  review: ConversionReview,
  result: BatchResult,
  printed: PrintedReply | undefined,
  lossless: boolean,
  deep: boolean,
  replyLimit?: number,
): { text: string; failure?: Failure } | { bytes: ReplyBytes } {
  const fail = (code: FailureCode, message: string) => ({
    text: encodeJson(failureReply(review, message)),
    failure: failureOf(code, message),
  });
  if (!result.ok) return fail(result.code, result.message);
  const { objects } = result;
  const count = printed ? review.request.objects.length : objects.length;
  const reply = printed ? printed.finish() : printWhole(review, objects, lossless, deep);
  if ("index" in reply) {
    // The objects are crdshift's copies of what converters returned (converter-result.ts), but
    // for `metadata.managedFields`, which a converter's input shares with the reply
    // (metadata-guard.ts privateMetadata): a converter that put a cycle or a throwing getter
    // there is the one thing left that can fail to print.
    const { index, error } = reply;
    // What a getter there threw may be anything: read as a thrown value, never trusted.
    const message = textField(error, "message");
    const why =
      isInstance(error, TypeError) && /circular/i.test(message ?? "")
        ? "it refers to itself"
        : (message ?? thrownText(error));
    return fail(
      "result-unprintable",
      `${convertedName(review, index)}: the converter's result cannot be written as JSON: ${why}`,
    );
  }
  if (replyLimit === undefined) return reply;
  // A platform that caps replies (Lambda) carries them as strings anyway.
  const text = "text" in reply ? reply.text : replyText(reply.bytes);
  if (exceedsEmbedded(text, replyLimit)) {
    return fail(
      "reply-too-large",
      `the converted ${count} objects make a reply of more than ${replyLimit} bytes, over this platform's response limit; ` +
        "serve this CRD from a platform without one (Cloudflare Workers) or with fewer objects per review",
    );
  }
  return { text };
}

/** The reply of converted `objects` in one call, or the first that cannot be printed and why. */
function printWhole(
  review: ConversionReview,
  objects: readonly JsonObject[],
  lossless: boolean,
  deep: boolean,
): { text: string } | { index: number; error: unknown } {
  try {
    return { text: encodeJson(successReply(review, objects as JsonObject[]), lossless, deep) };
  } catch (error) {
    const index = objects.findIndex((object) => {
      try {
        encodeJson(object, lossless, deep);
        return false;
      } catch {
        return true;
      }
    });
    if (index < 0) throw error;
    return { index, error };
  }
}

/** How a converter failure names its object: `object 0 (default/a) CronTab example.com/v1 -> example.com/v2`. */
function convertedName(review: ConversionReview, index: number): string {
  const source = review.request.objects[index];
  const { kind, apiVersion } = isJsonObject(source) ? source : {};
  return `${describeObject(index, source)} ${String(kind)} ${String(apiVersion)} -> ${review.request.desiredAPIVersion}`;
}
