import type { Hono } from "hono";
import type { FunctionUrlBindings, FunctionUrlEvent, FunctionUrlResult, LambdaContext } from "./function-url-event";
import { LightHeaders } from "./function-url-headers";
import { EventRequest } from "./function-url-request";

/**
 * AWS Lambda function URL events (payload format 2.0, BUFFERED) to the Hono app and back, as
 * AWS documents them. In place of `hono/aws-lambda` (deprecated, and it builds Node's own
 * Request and Headers, which loads undici and lengthens every cold start).
 */
export type { FunctionUrlBindings, FunctionUrlEvent, FunctionUrlResult, LambdaContext };

export function isFunctionUrlEvent(event: unknown): event is FunctionUrlEvent {
  const e = event as Partial<FunctionUrlEvent> | null;
  return typeof e?.rawPath === "string" && typeof e.requestContext?.http?.method === "string";
}

export function toRequest(event: FunctionUrlEvent): EventRequest {
  const headers = new LightHeaders();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.append(name, value);
  if (event.cookies?.length) headers.set("cookie", event.cookies.join("; "));
  const host = event.requestContext.domainName ?? headers.get("host") ?? "localhost";
  const query = event.rawQueryString ? `?${event.rawQueryString}` : "";
  let body: string | Uint8Array | null = null;
  if (typeof event.body === "string") {
    body = event.isBase64Encoded ? Buffer.from(event.body, "base64") : event.body;
    // The function URL has the whole body already: its length is known, nothing is chunked.
    headers.set("content-length", String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength));
    headers.delete("transfer-encoding");
  }
  return new EventRequest(event.requestContext.http.method, `https://${host}${event.rawPath}${query}`, headers, body);
}

const TEXT = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded)\b)/i;

export async function toResult(response: Response): Promise<FunctionUrlResult> {
  const textual = TEXT.test(response.headers.get("content-type") ?? "") && !response.headers.has("content-encoding");
  const body = textual ? await response.text() : Buffer.from(await response.arrayBuffer()).toString("base64");
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body,
    isBase64Encoded: !textual,
  };
}

export function handleFunctionUrl(app: Hono) {
  return async (event: FunctionUrlEvent, lambdaContext: LambdaContext): Promise<FunctionUrlResult> => {
    if (!isFunctionUrlEvent(event)) {
      // A deployment mistake (another trigger, a test invoke): say so in the invocation error.
      throw new TypeError(
        "crdshift's Lambda handler takes function URL events (payload format 2.0, with rawPath and requestContext.http)",
      );
    }
    let request: EventRequest;
    try {
      request = toRequest(event);
    } catch (error) {
      // A header Node's fetch would refuse too: the request is malformed, not the function.
      if (!(error instanceof TypeError)) throw error;
      return {
        statusCode: 400,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ error: `invalid request: ${error.message}` }),
        isBase64Encoded: false,
      };
    }
    const bindings: FunctionUrlBindings = { event, requestContext: event.requestContext, lambdaContext };
    return toResult(await app.fetch(request as unknown as Request, bindings));
  };
}
