import { JsonError, decodeJson, encodeJson } from "../protocol/json";
import { failureReply, successReply } from "../protocol/reply";
import { parseReview, type ConversionReview } from "../protocol/review";
import { scanBody } from "../protocol/shape";
import { exceedsEmbedded } from "../protocol/size";
import type { Registry } from "../registry";
import { convertObjects, type BatchResult } from "./convert";
import { describeObject } from "./describe";
import { limitFailure, type ReviewLimits } from "./limits";

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
  const shape = scanBody(text);
  if (shape.depth > options.maxDepth) {
    return { rejected: "too-deep", message: `body is nested ${shape.depth} levels deep, over the limit of ${options.maxDepth} (CRDSHIFT_MAX_DEPTH)` };
  }
  let decoded;
  try {
    decoded = decodeJson(text, shape.longNumber);
  } catch (error) {
    if (error instanceof JsonError) return { rejected: "invalid-json", message: error.message };
    throw error;
  }
  const parsed = parseReview(decoded.value);
  if (!parsed.ok) return { rejected: "invalid-review", message: parsed.message };
  const { review } = parsed;
  const { request } = review;
  const overLimit = limitFailure(request.objects, shape, options);
  const result: BatchResult = overLimit
    ? { ok: false, ...overLimit }
    : await convertObjects(registry, request.desiredAPIVersion, request.objects, {
        ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
        ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
        ...(options.now ? { now: options.now } : {}),
      });
  return { review, ...encodeReply(review, result, decoded.lossless, options.replyLimitBytes) };
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
