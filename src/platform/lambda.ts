import type { Context } from "hono";
import { handleFunctionUrl, type FunctionUrlBindings } from "../adapter/function-url/handle";
import { installLightResponse } from "../adapter/function-url/response";
import { registry } from "../../examples";
import { createApp } from "../app";
import { ConfigError, readConfig } from "../config";
import { jsonLogger } from "../log";
import { createMetrics } from "../metrics";
import { sha256Hex } from "./sha256";

/**
 * AWS Lambda entry, for a function URL (payload format 2.0, BUFFERED). The app is built once,
 * during the init phase; events become Requests and Responses become results in
 * adapter/function-url, without loading Node's fetch implementation (see there).
 */
const startedAt = Date.now();
installLightResponse();
/** Time kept back from Lambda's remaining time to encode and return the reply. */
const RETURN_MARGIN_MS = 500;

function lambdaDeadline(c: Context): number | undefined {
  const context = (c.env as Partial<FunctionUrlBindings> | undefined)?.lambdaContext;
  if (typeof context?.getRemainingTimeInMillis !== "function") return undefined;
  return Date.now() + context.getRemainingTimeInMillis() - RETURN_MARGIN_MS;
}

/** The function URL's own record of the caller (`requestContext.http.sourceIp`), not a header. */
function lambdaSource(c: Context): string | undefined {
  return (c.env as Partial<FunctionUrlBindings> | undefined)?.requestContext?.http?.sourceIp;
}

function build() {
  try {
    // EMF unless told otherwise: metrics as log lines, no SDK to load, no API call to wait for.
    const config = readConfig(process.env, { metrics: "emf" });
    // Straight to stdout: EMF lines must be bare JSON, without the runtime's console.log prefix.
    const metrics = createMetrics(config.metrics, { log: jsonLogger, write: (line) => process.stdout.write(`${line}\n`) });
    return handleFunctionUrl(createApp({ registry, config, log: jsonLogger, startedAt, platformDeadline: lambdaDeadline, metrics, sourceAddress: lambdaSource, tokenHash: sha256Hex }));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    jsonLogger({ level: "error", msg: "configuration error", error: error.message });
    return async () => ({
      statusCode: 500,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ error: "crdshift is misconfigured; see the function's logs" }),
      isBase64Encoded: false,
    });
  }
}

export const handler = build();
