/** crdshift/lambda: the AWS Lambda function URL handler. */
export * from "./lambda";
export { LAMBDA_TIMEOUT_SECONDS } from "./function-url-limits";
