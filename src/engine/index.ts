export { convertObjects, type BatchOptions, type BatchResult, type FailureCause } from "./convert";
export { guardMetadata } from "./metadata";
export { qualifiedNameError, labelValueError, labelsError, annotationsError } from "./labels";
