/** The Lambda platform inside the source tree; the package's crdshift/lambda is lambda.ts. */
export * from "./lambda";
export { LAMBDA_TIMEOUT_SECONDS } from "./function-url-limits";
