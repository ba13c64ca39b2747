import type { Context } from "hono";
import { handle, type LambdaContext } from "hono/aws-lambda";
import { registry } from "../../examples";
import { createApp } from "../app";
import { ConfigError, readConfig } from "../config";
import { jsonLogger } from "../log";

/**
 * AWS Lambda entry, for a function URL (payload format 2.0, BUFFERED). Hono's adapter turns the
 * event into a Request (base64 bodies, `rawQueryString`, `rawPath` with the token) and the
 * Response back into a result. The app is built once, during the init phase.
 */
const startedAt = Date.now();
/** Time kept back from Lambda's remaining time to encode and return the reply. */
const RETURN_MARGIN_MS = 500;

function lambdaDeadline(c: Context): number | undefined {
  const context = (c.env as { lambdaContext?: LambdaContext } | undefined)?.lambdaContext;
  if (typeof context?.getRemainingTimeInMillis !== "function") return undefined;
  return Date.now() + context.getRemainingTimeInMillis() - RETURN_MARGIN_MS;
}

function build() {
  try {
    const config = readConfig(process.env);
    return handle(createApp({ registry, config, log: jsonLogger, startedAt, platformDeadline: lambdaDeadline }));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    jsonLogger({ level: "error", msg: "configuration error", error: error.message });
    return async () => ({
      statusCode: 500,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ error: "crdshift is misconfigured; see the function's logs" }),
    });
  }
}

export const handler = build();
