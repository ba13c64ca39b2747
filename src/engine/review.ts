import { JsonError, decodeJson, encodeJson, mayHoldUnsafeInteger, type Decoded } from "../protocol/json";
import { failureReply, successReply } from "../protocol/reply";
import { parseReview, type ConversionReview } from "../protocol/review";
import { scanBody, treeDepth, type BodyShape } from "../protocol/shape";
import { exceedsEmbedded } from "../protocol/size";
import type { Registry } from "../registry";
import { convertObjects, type BatchResult } from "./convert";
import { describeObject } from "./describe";
import { limitFailure, type ReviewLimits } from "./limits";
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
  const { shape, decoded } = read;
  const parsed = parseReview(decoded.value);
  if (!parsed.ok) return { rejected: "invalid-review", message: parsed.message };
  const { review } = parsed;
  const { request } = review;
  const overLimit = limitFailure(request.objects, shape, options);
  const result: BatchResult = overLimit
    ? { ok: false, ...overLimit }
    : await convertObjects(registry, request.desiredAPIVersion, request.objects, { ...options, mayHoldProtoKeys: mayHoldProtoKey(text) });
  return { review, ...encodeReply(review, result, decoded.lossless, options.replyLimitBytes) };
}

type ReadBody = { shape: BodyShape; decoded: Decoded } | { rejected: "too-deep" | "invalid-json"; message: string };

/**
 * Parses the body, measuring its shape and enforcing the depth limit. Most bodies hold no
 * 16-digit run and are too small for any item to exceed the size limit: those are parsed
 * natively (V8's JSON.parse takes any depth) and their depth read from the tree. The others
 * are scanned first, because their item sizes are needed and lossless-json recurses.
 */
function readBody(text: string, options: BodyOptions): ReadBody {
  // UTF-8 takes at most three bytes per UTF-16 unit: below a third of the limit, no item exceeds it.
  const fast = text.length * 3 <= options.maxObjectBytes && !mayHoldUnsafeInteger(text);
  // On the fast path the body's own length stands in for its largest item: an upper bound.
  const shape: BodyShape = fast ? { depth: 0, largestItem: text.length, longNumber: false } : scanBody(text);
  if (shape.depth > options.maxDepth) return tooDeep(shape.depth, options.maxDepth);
  let decoded: Decoded;
  try {
    decoded = decodeJson(text, shape.longNumber);
  } catch (error) {
    if (error instanceof JsonError) return { rejected: "invalid-json", message: error.message };
    throw error;
  }
  if (fast) {
    shape.depth = treeDepth(decoded.value);
    if (shape.depth > options.maxDepth) return tooDeep(shape.depth, options.maxDepth);
  }
  return { shape, decoded };
}

function tooDeep(depth: number, limit: number) {
  return { rejected: "too-deep" as const, message: `body is nested ${depth} levels deep, over the limit of ${limit} (CRDSHIFT_MAX_DEPTH)` };
}

function encodeReply(review: ConversionReview, result: BatchResult, lossless: boolean, replyLimit?: number): { text: string; failure?: { cause: string; message: string } } {
  const fail = (cause: string, message: string) => ({ text: encodeJson(failureReply(review, message)), failure: { cause, message } });
  if (!result.ok) return fail(result.cause, result.message);
  try {
    const text = encodeJson(successReply(review, result.objects), lossless);
    if (replyLimit !== undefined && exceedsEmbedded(text, replyLimit)) {
      return fail(
        "reply-too-large",
        `the converted ${result.objects.length} objects make a reply of more than ${replyLimit} bytes, over this platform's response limit; ` +
          "serve this CRD from a platform without one (Cloudflare Workers) or with fewer objects per review",
      );
    }
    return { text };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // V8 parses any depth but cannot print beyond a few thousand levels: name the object.
    const index = result.objects.findIndex((object) => {
      try {
        encodeJson(object, lossless);
        return false;
      } catch {
        return true;
      }
    });
    return fail("invalid-object", `${describeObject(index, review.request.objects[index])}: nested too deeply to be serialized`);
  }
}
