export { decodeJson, encodeJson, JsonError, type Decoded } from "./json";
export { parseApiVersion, type GroupVersion } from "./api-version";
export {
  parseReview,
  conversionReviewSchema,
  REVIEW_API_VERSIONS,
  type ConversionReview,
  type ConversionRequest,
  type ConversionReviewReply,
  type ConversionResponse,
  type ConversionResult,
  type ReviewApiVersion,
} from "./review";
export { successReply, failureReply } from "./reply";
export { scanBody, type BodyShape } from "./body-scan";
