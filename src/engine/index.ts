export { type BatchOptions, type BatchResult, convertObjects, type FailureCause } from "./convert";
export { annotationsError, labelsError, labelValueError, qualifiedNameError } from "./labels";
export { guardMetadata } from "./metadata";
