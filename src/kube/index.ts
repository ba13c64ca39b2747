export { type GroupVersion, parseApiVersion, kindLabel } from "./api-version";
export { failureReply, successReply } from "./review-reply";
export {
  type ConversionRequest,
  type ConversionResponse,
  type ConversionResult,
  type ConversionReview,
  type ConversionReviewReply,
  parseReview,
} from "./review-schema";
export { storedForm } from "./stored-form";
export { DNS_LABEL_1035, DNS_LABEL_MAX, DNS_SUBDOMAIN, DNS_SUBDOMAIN_MAX, ANNOTATIONS_MAX_BYTES } from "./names";
export { annotationsError, labelsError } from "./labels";
