import { decodeJson, isJsonObject } from "../../json";
import { goDecodeError } from "./go-decoding";
import { goQuote, parseGroupVersion, trimSpaceGo } from "./go-text";
import { parseMediaType } from "./media-type";
import { STATUS } from "./review-types";
/**
 * What client-go makes of a reply outside 200–206 (`newUnstructuredResponseError`, apimachinery
 * `NewGenericServerResponse`, `Result.Error`): a `Status` body's message if it is one, else a
 * fixed sentence per status, with the body's text only where the sentence keeps it.
 */

const STATUS_TEXT: Record<number, string> = {
  400: "the server rejected our request for an unknown reason",
  401: "the server has asked for the client to provide credentials",
  404: "the server could not find the requested resource",
  405: "the server does not allow this method on the requested resource",
  409: "the server reported a conflict",
  422: "the server rejected our request due to an error in our request",
  429: "the server has received too many requests and has asked us to try again later",
  503: "the server is currently unable to handle the request",
  504: "the server was unable to return a response in the time allotted, but may still be processing the request",
};

/** client-go keeps this much of a body for the message. */
const BODY_TEXT_BYTES = 2048;

export function statusError(status: number, body: string, contentType: string): string {
  const fromStatus = failureStatusMessage(body);
  if (fromStatus !== undefined) return fromStatus;
  // The body counts only where it is text: no Content-Type, or a text/* one.
  const media = contentType === "" ? undefined : parseMediaType(contentType);
  const isText = media === undefined || (!media.error && media.type.startsWith("text/"));
  const message = isText ? trimSpaceGo(firstBytes(body, BODY_TEXT_BYTES)) : "unknown";
  const fixed = STATUS_TEXT[status];
  if (fixed) return fixed;
  if (status === 403 || status === 415) return message;
  if (status === 406) {
    return message === "" || message === "unknown"
      ? "the server was unable to respond with a content type that the client supports"
      : message;
  }
  if (status >= 500) return `an error on the server (${goQuote(message)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${status} but did not return more information`;
}

/**
 * `Result.Error`: a body that decodes as a `v1` `Status` (version defaulted) with status
 * `Failure` gives its message, even an empty one. Undefined when it does not.
 */
function failureStatusMessage(body: string): string | undefined {
  if (!/^\s*\{/.test(body)) return undefined;
  let value: unknown;
  try {
    value = decodeJson(body).value;
  } catch {
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  const { apiVersion, kind } = value;
  if (apiVersion != null && typeof apiVersion !== "string") return undefined;
  if (kind !== "Status") return undefined;
  const gv = parseGroupVersion(apiVersion ?? "");
  if (!gv || gv.group !== "" || (gv.version !== "" && gv.version !== "v1")) return undefined;
  if (goDecodeError(value, STATUS) !== undefined) return undefined;
  if (value.status !== "Failure") return undefined;
  return typeof value.message === "string" ? value.message : "";
}

function firstBytes(text: string, bytes: number): string {
  if (text.length * 3 <= bytes) return text;
  const encoded = new TextEncoder().encode(text);
  return encoded.length <= bytes ? text : new TextDecoder().decode(encoded.subarray(0, bytes));
}
