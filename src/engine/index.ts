export { type BatchOptions, type BatchResult, convertObjects } from "./convert-batch";
export { annotationsError, labelsError, labelValueError, qualifiedNameError } from "./labels";
export { guardMetadata } from "./metadata";
