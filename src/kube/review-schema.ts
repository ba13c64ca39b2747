// zod/mini: the same checks as classic zod in a much smaller bundle, which cold starts pay for.
import * as z from "zod/mini";
import type { Rejection, Result } from "../outcome";
import { isJsonObject } from "../json";
import { APIEXTENSIONS_VERSIONS, type ApiextensionsVersion } from "./api-version";

/**
 * The ConversionReview request, as the kube-apiserver sends it. `v1` and `v1beta1` share one
 * shape. Loose objects everywhere: unknown keys (the pre-filled empty `response` stanza, fields
 * of future versions) are tolerated, and the custom resources are taken as they are, unknown
 * values and all, so validation can never drop a field.
 */
const REVIEW_API_VERSIONS = APIEXTENSIONS_VERSIONS;
type ReviewApiVersion = ApiextensionsVersion;

const conversionRequestSchema = z.looseObject({
  uid: z.string(),
  desiredAPIVersion: z.string(),
  objects: z.array(z.unknown()),
});

const conversionReviewSchema = z.looseObject({
  apiVersion: z.enum(REVIEW_API_VERSIONS),
  kind: z.literal("ConversionReview"),
  request: conversionRequestSchema,
});

export type ConversionRequest = z.infer<typeof conversionRequestSchema>;
export type ConversionReview = z.infer<typeof conversionReviewSchema>;

/** `metav1.Status`, the subset the apiserver reads: only `status` and `message` matter to it. */
export interface ConversionResult {
  status: "Success" | "Failure";
  message?: string;
}

export interface ConversionResponse {
  uid: string;
  result: ConversionResult;
  convertedObjects?: unknown[];
}

export interface ConversionReviewReply {
  apiVersion: ReviewApiVersion;
  kind: "ConversionReview";
  response: ConversionResponse;
}

export type ReviewParse = Result<{ review: ConversionReview }, Rejection>;

/**
 * Checks that a decoded body is a ConversionReview request; says why not in one line. A review
 * as the apiserver sends it passes a hand check of the same rules and is returned as it is
 * (zod would copy the envelope and the objects array, a few microseconds a read); anything
 * else goes to zod, which decides and words the refusal.
 */
export function parseReview(value: unknown): ReviewParse {
  if (plainlyReview(value)) return { ok: true, review: value };
  return parseReviewWithZod(value);
}

/** The envelope checked by zod alone: what `parseReview` answers for anything `plainlyReview` does not accept. */
export function parseReviewWithZod(value: unknown): ReviewParse {
  const result = conversionReviewSchema.safeParse(value);
  if (result.success) return { ok: true, review: result.data };
  const issue = result.error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return { ok: false, reason: "invalid-review", message: `not a ConversionReview request: ${where}${issue.message}` };
}

/**
 * `conversionReviewSchema`'s rules, for data as JSON.parse and YAML readers make it: a
 * property test holds every value it accepts to zod's acceptance of the same value.
 */
export function plainlyReview(value: unknown): value is ConversionReview {
  if (!isJsonObject(value)) return false;
  const { apiVersion, request } = value;
  if (apiVersion !== REVIEW_API_VERSIONS[0] && apiVersion !== REVIEW_API_VERSIONS[1]) return false;
  if (value.kind !== "ConversionReview" || !isJsonObject(request)) return false;
  return (
    typeof request.uid === "string" && typeof request.desiredAPIVersion === "string" && Array.isArray(request.objects)
  );
}
