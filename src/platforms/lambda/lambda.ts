import type { Context } from "hono";
import { functionMemoryCap } from "./function-memory";
import { jsonLogger } from "../../log";
import type { Registry } from "../../conversion";
import { importCloudWatchSdk } from "../../metrics/cloudwatch-sdk";
import { FUNCTION_URL_PAYLOAD_BYTES, FUNCTION_URL_REPLY_BYTES } from "./function-url-limits";
import { misconfiguredBody, startApp } from "../../server";
import {
  type FunctionUrlBindings,
  type FunctionUrlEvent,
  type FunctionUrlResult,
  type LambdaContext,
} from "./function-url-event";
import { installLightResponse } from "./function-url-global-response";
import { handleFunctionUrl } from "./function-url-handle";
import { lambdaTrace } from "./xray-trace";

export type { FunctionUrlEvent, FunctionUrlResult, LambdaContext };
export { FUNCTION_URL_PAYLOAD_BYTES, FUNCTION_URL_REPLY_BYTES };

export interface HandlerOptions {
  /**
   * A candidate registry to shadow: it also converts a sampled share of reviews
   * (CRDSHIFT_SHADOW_SAMPLE) once the result is handed back, differences counted and logged,
   * never served. See docs/platforms.md: Shadow.
   */
  shadow?: Registry;
}

/** A Lambda handler for function URL events. */
export type FunctionUrlHandler = (event: FunctionUrlEvent, context: LambdaContext) => Promise<FunctionUrlResult>;

// When this instance's code was loaded: the first review of a cold start pays for it.
const loadedAt = Date.now();
/** Time kept back from Lambda's remaining time to encode and return the reply. */
const RETURN_MARGIN_MS = 500;

function lambdaDeadline(c: Context): number | undefined {
  const context = (c.env as Partial<FunctionUrlBindings> | undefined)?.lambdaContext;
  if (typeof context?.getRemainingTimeInMillis !== "function") return undefined;
  return Date.now() + context.getRemainingTimeInMillis() - RETURN_MARGIN_MS;
}

/** The function URL's own record of the caller (`requestContext.http.sourceIp`), not a header. */
function lambdaCallerAddress(c: Context): string | undefined {
  return (c.env as Partial<FunctionUrlBindings> | undefined)?.requestContext?.http?.sourceIp;
}

/**
 * The AWS Lambda handler serving `registry` behind a function URL (payload format 2.0,
 * BUFFERED). Call it at the top level of the handler module, so the app is built once, during
 * the init phase. Events become Requests and Responses become results in crdshift's own adapter,
 * without loading Node's fetch implementation. Bodies over the function URL's 6 MiB and replies
 * that would not fit in its 6 MiB response are refused cleanly unless the environment says
 * otherwise; metrics are EMF log lines unless `CRDSHIFT_METRICS` says otherwise.
 *
 * @example
 * import { createHandler } from "crdshift/lambda";
 * import { registry } from "./registry.js";
 * export const handler = createHandler(registry);
 */
export function createHandler(registry: Registry, options: HandlerOptions = {}): FunctionUrlHandler {
  // From here on this process's global Response is crdshift's own (see global-response.ts).
  installLightResponse();
  const memoryCap = functionMemoryCap(process.env);
  const started = startApp(registry, {
    env: process.env,
    defaults: {
      metrics: "emf",
      bodyLimitBytes: FUNCTION_URL_PAYLOAD_BYTES,
      replyLimitBytes: FUNCTION_URL_REPLY_BYTES,
      ...(memoryCap === undefined ? {} : { maxBytesInFlight: memoryCap }),
    },
    log: jsonLogger,
    // Straight to stdout: EMF lines must be bare JSON, without the runtime's console.log prefix.
    writeMetricLine: (line) => process.stdout.write(`${line}\n`),
    // The runtime's copy: bundle the function with --external:@aws-sdk/*.
    loadCloudWatchSdk: importCloudWatchSdk,
    startedAt: loadedAt,
    platformDeadline: lambdaDeadline,
    callerAddress: lambdaCallerAddress,
    platformTrace: lambdaTrace,
    ...(options.shadow ? { shadow: options.shadow } : {}),
  });
  if (started.ok) return handleFunctionUrl(started.app);
  const body = misconfiguredBody("function");
  return async () => ({
    statusCode: 500,
    headers: { "content-type": "application/json" },
    body,
    isBase64Encoded: false,
  });
}
