/** A Lambda function URL takes and returns 6 MiB at most (BUFFERED mode). */
export const FUNCTION_URL_PAYLOAD_BYTES = 6 * 1024 * 1024;

/**
 * The largest reply body crdshift sends from a function URL: the reply travels as a JSON string
 * inside Lambda's result, so room is left for that envelope.
 */
export const FUNCTION_URL_REPLY_BYTES = FUNCTION_URL_PAYLOAD_BYTES - 16 * 1024;

/** The apiserver waits 30 s for a conversion webhook, fixed; Lambda must give up before it. */
export const LAMBDA_TIMEOUT_SECONDS = 25;
