import { handle } from "hono/aws-lambda";
import { registry } from "../../examples";
import { createApp } from "../app";
import { ConfigError, readConfig } from "../config";
import { jsonLogger } from "../log";

/**
 * AWS Lambda entry, for a function URL (payload format 2.0, BUFFERED). Hono's adapter turns the
 * event into a Request (base64 bodies, `rawQueryString`, `rawPath` with the token) and the
 * Response back into a result. The app is built once, during the init phase.
 */
function build() {
  try {
    return handle(createApp({ registry, config: readConfig(process.env), log: jsonLogger }));
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
