export { type GroupVersion, parseApiVersion } from "./api-version";
export { type BodyShape, scanBody } from "./body-scan";
export { type Decoded, decodeJson, encodeJson, JsonError } from "./json";
export { failureReply, successReply } from "./reply";
export {
  type ConversionRequest,
  type ConversionResponse,
  type ConversionResult,
  type ConversionReview,
  type ConversionReviewReply,
  conversionReviewSchema,
  parseReview,
  REVIEW_API_VERSIONS,
  type ReviewApiVersion,
} from "./review-schema";
