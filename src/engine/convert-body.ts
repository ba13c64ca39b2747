import { scanBody, treeDepth } from "../protocol/body-scan";
import {
  type Decoded,
  decodeJson,
  encodeJson,
  JsonError,
  mayHoldCarefulNumber,
  OutOfRange,
  syntaxErrorMessage,
} from "../protocol/json";
import { failureReply, successReply } from "../protocol/reply";
import { type ConversionReview, parseReview } from "../protocol/review-schema";
import { exceedsEmbedded } from "../protocol/size";
import type { Registry } from "../registry";
import { type BatchResult, convertObjects } from "./convert";
import { describeObject } from "./describe";
import { holdsNonFiniteNumber, holdsValue, isJsonObject } from "./json-values";
import { envelopeProblem, type LimitFailure, limitFailure, limitFailureBeforeParse, type ReviewLimits } from "./limits";
import { mayHoldProtoKey } from "./proto-keys";

export interface BodyOptions extends ReviewLimits {
  maxDepth: number;
  replyLimitBytes?: number | undefined;
  deadline?: number;
  budgetMs?: number;
  now?: () => number;
}

/** What a request body comes to: a refusal before it was a review, or the reply to send. */
export type BodyOutcome =
  | { rejected: "too-deep" | "invalid-json" | "invalid-review"; message: string }
  | { rejected?: undefined; review: ConversionReview; text: string; failure?: { cause: string; message: string } };

/**
 * The whole of the webhook's work on one body, without HTTP: shape check, decode, envelope,
 * limits, conversion, encoding. The app adds routes, logs and metrics around it; the benchmark
 * measures exactly this.
 */
export async function convertBody(registry: Registry, text: string, options: BodyOptions): Promise<BodyOutcome> {
  const read = readBody(text, options);
  if ("rejected" in read) return read;
  const { decoded } = read;
  const parsed = parseReview(decoded.value);
  if (!parsed.ok) return { rejected: "invalid-review", message: parsed.message };
  const { review } = parsed;
  const { request } = review;
  const refusal =
    read.refusal ??
    limitFailure(request.objects, options) ??
    (decoded.outOfRange ? outOfRangeFailure(request.objects) : undefined);
  const result: BatchResult = refusal
    ? { ok: false, ...refusal }
    : await convertObjects(registry, request.desiredAPIVersion, request.objects, {
        ...options,
        mayHoldProtoKeys: mayHoldProtoKey(text),
      });
  return {
    review,
    ...encodeReply(review, result, decoded.lossless, read.depth > NATIVE_PRINT_DEPTH, options.replyLimitBytes),
  };
}

/**
 * A parsed body, how deep it nests (0: too short to matter), and the refusal of a limit decided
 * before parsing (`decoded` is then the envelope alone).
 */
interface Read {
  decoded: Decoded;
  depth: number;
  refusal: LimitFailure | undefined;
}

/**
 * Deeper than this, replies are printed iteratively: V8's JSON.stringify checks each level
 * against all those above it, so its time grows with the square of the depth (6 ms for one
 * 4,000-deep chain, where it then runs out of stack).
 */
const NATIVE_PRINT_DEPTH = 500;

/**
 * Largest body parsed before it is scanned. Parsing is what costs (V8 takes about 0.5 us per
 * node it builds): up to this size it costs little even when the body is then refused, and
 * saves the scan (a fifth of the engine's time on a 100-object review).
 */
const PARSE_FIRST_LIMIT = 1024 * 1024;

// Out-of-range numbers are marked, for the object holding one to fail, named.
const DECODE = { outOfRange: "mark" } as const;
const DECODE_PLAIN = { outOfRange: "mark", carefulNumbers: false } as const;
const DECODE_CAREFUL = { outOfRange: "mark", carefulNumbers: true } as const;

/**
 * Parses the body, enforcing the depth limit and, for a body that could exceed them, the
 * objects and size limits before the tree is built. A small body without a number that needs
 * care is parsed natively first and its depth read from the tree; any other is scanned first:
 * over a limit, only the review's envelope is parsed, to answer it.
 */
function readBody(
  text: string,
  options: BodyOptions,
): Read | { rejected: "too-deep" | "invalid-json" | "invalid-review"; message: string } {
  try {
    // UTF-8 takes at most three bytes per UTF-16 unit: below a third of the limit, no item exceeds it.
    if (text.length <= PARSE_FIRST_LIMIT && text.length * 3 <= options.maxObjectBytes && !mayHoldCarefulNumber(text)) {
      const decoded = decodeJson(text, DECODE_PLAIN);
      // Each level takes two characters: a body this short nests less than the limit, and too
      // little to keep JSON.stringify long (a 10,000-deep chain: 6 ms before it gives up).
      const depth = text.length > 2 * Math.min(options.maxDepth, 10_000) ? treeDepth(decoded.value) : 0;
      return depth > options.maxDepth ? tooDeep(depth, options.maxDepth) : { decoded, depth, refusal: undefined };
    }
    const shape = scanBody(text, options.maxObjectBytes);
    if (shape.depth > options.maxDepth) return tooDeep(shape.depth, options.maxDepth);
    const unusual = envelopeProblem(text, shape);
    if (unusual) {
      // Text that is not JSON at all is said to be that.
      const broken = syntaxErrorMessage(text);
      if (broken) return { rejected: "invalid-json", message: broken };
      return {
        rejected: "invalid-review",
        message: `body is not a ConversionReview as an apiserver writes one: ${unusual}`,
      };
    }
    const refusal = limitFailureBeforeParse(text, shape, options);
    if (refusal) {
      const { start, end } = shape.objects!;
      return { decoded: decodeJson(`${text.slice(0, start)}[]${text.slice(end + 1)}`, DECODE), depth: 0, refusal };
    }
    return {
      decoded: decodeJson(text, shape.carefulNumbers ? DECODE_CAREFUL : DECODE_PLAIN),
      depth: shape.depth,
      refusal: undefined,
    };
  } catch (error) {
    if (error instanceof JsonError) return { rejected: "invalid-json", message: error.message };
    throw error;
  }
}

function tooDeep(depth: number, limit: number) {
  return {
    rejected: "too-deep" as const,
    message: `body is nested ${depth} levels deep, over the limit of ${limit} (CRDSHIFT_MAX_DEPTH)`,
  };
}

/** A number no double holds (`1e400`) would come back changed: the object holding it fails, named. */
function outOfRangeFailure(objects: readonly unknown[]): LimitFailure | undefined {
  const index = objects.findIndex((object) => holdsValue(object, (value) => value instanceof OutOfRange));
  if (index < 0) return undefined; // outside the objects: nothing sent back holds it
  return {
    cause: "invalid-object",
    message: `${describeObject(index, objects[index])}: holds a number beyond the range of a 64-bit float (such as 1e400 or 1e-400), which would not come back unchanged; the apiserver never sends one`,
  };
}

function encodeReply(
  review: ConversionReview,
  result: BatchResult,
  lossless: boolean,
  deep: boolean,
  replyLimit?: number,
): { text: string; failure?: { cause: string; message: string } } {
  const fail = (cause: string, message: string) => ({
    text: encodeJson(failureReply(review, message)),
    failure: { cause, message },
  });
  if (!result.ok) return fail(result.cause, result.message);
  const { objects } = result;
  let text: string;
  try {
    text = encodeJson(successReply(review, objects), lossless, deep);
  } catch (error) {
    // Only what a converter returned can fail to print: a cycle, or a toJSON that throws.
    const index = objects.findIndex((object) => {
      try {
        encodeJson(object, lossless, deep);
        return false;
      } catch {
        return true;
      }
    });
    if (index < 0) throw error;
    const why =
      error instanceof TypeError && /circular/i.test(error.message) ? "it refers to itself" : (error as Error).message;
    return fail(
      "converter-error",
      `${convertedName(review, index)}: the converter's result cannot be written as JSON: ${why}`,
    );
  }
  // JSON writes NaN and ±Infinity as null: a converter's NaN must not pass silently as null.
  if (NULL_VALUE.test(text)) {
    const index = objects.findIndex(holdsNonFiniteNumber);
    if (index >= 0) {
      return fail(
        "converter-error",
        `${convertedName(review, index)}: the converter's result holds NaN or Infinity, which JSON cannot carry (it would arrive as null)`,
      );
    }
  }
  if (replyLimit !== undefined && exceedsEmbedded(text, replyLimit)) {
    return fail(
      "reply-too-large",
      `the converted ${objects.length} objects make a reply of more than ${replyLimit} bytes, over this platform's response limit; ` +
        "serve this CRD from a platform without one (Cloudflare Workers) or with fewer objects per review",
    );
  }
  return { text };
}

// null as a value in compact JSON: a fixed-length pattern, which V8's regex engine skips through.
const NULL_VALUE = /[:,[]null[,}\]]/;

/** How a converter failure names its object: `object 0 (default/a) CronTab example.com/v1 -> example.com/v2`. */
function convertedName(review: ConversionReview, index: number): string {
  const source = review.request.objects[index];
  const { kind, apiVersion } = isJsonObject(source) ? source : {};
  return `${describeObject(index, source)} ${String(kind)} ${String(apiVersion)} -> ${review.request.desiredAPIVersion}`;
}
