import type { Config } from "./config";
import type { Logger } from "../log";
import { RETRY_AFTER_SECONDS } from "./bytes-in-flight";
import { createTokenCheck } from "./path-token";
import type { Rejection } from "../outcome";
import { NOT_FOUND } from "./report";

/** What admission reads of a request, on any platform: the Hono app builds it from its Context. */
export interface RequestHead {
  method: string;
  /** The path's token segment (`/convert/<token>`), undefined at `/convert`. */
  token: string | undefined;
  /** The Content-Type header as the Fetch API gives it (repeated headers joined with ", "). */
  contentType: string | undefined;
  /** The body's length as the request declares it (see `declaredLength`), read once. */
  declaredLength: number | undefined;
  /** The caller's address as the platform saw it (see AppOptions.callerAddress). */
  callerAddress(): string | undefined;
}

export interface AdmissionOptions {
  config: Config;
  log: Logger;
}

/** The rejection of a request that may not be read as a review, or undefined to go on. */
export type Admission = (head: RequestHead) => Rejection | undefined;

const METHOD_NOT_ALLOWED: Rejection = {
  reason: "method-not-allowed",
  message: "method not allowed: send the ConversionReview with POST",
  headers: { Allow: "POST" },
};
const UNSUPPORTED_MEDIA_TYPE: Rejection = {
  reason: "unsupported-media-type",
  message: "unsupported media type: send Content-Type: application/json",
};
const SOURCE_NOT_ALLOWED: Rejection = { reason: "source-not-allowed", message: "not found" };

/** The 413 of a body over the limit. */
export function bodyTooLarge(limitBytes: number): Rejection {
  return {
    reason: "too-large",
    message: `request body is larger than the limit of ${limitBytes} bytes (CRDSHIFT_BODY_LIMIT_BYTES)`,
  };
}

/**
 * The 429 of a request that found no room under CRDSHIFT_MAX_BYTES_IN_FLIGHT in time, or whose
 * body turned out to hold more than there was room for. The
 * apiserver retries a 429 that names a whole number of seconds in Retry-After, within its 30 s;
 * other clients read the same header.
 */
export const BUSY: Rejection = {
  reason: "busy",
  message: `too much memory is held by reviews being converted at once (CRDSHIFT_MAX_BYTES_IN_FLIGHT): retry after ${RETRY_AFTER_SECONDS} s`,
  headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
};

/**
 * Why a request is rejected before its body is read, in this order: the caller's network and
 * the token (so nothing else is revealed without them), the method, the content type, the
 * declared size. A body sent without a length is counted as it is read (see `declaredLength`). Plain checks in a row rather than a middleware chain: every request
 * passes them.
 */
export function createAdmission({ config, log }: AdmissionOptions): Admission {
  const callerAllowed = callerNetworkCheck(config.allowedCallers, log);
  const tokenAccepted = createTokenCheck(config.tokens);
  const overLimit = bodyTooLarge(config.bodyLimitBytes);
  const rest = (head: RequestHead): Rejection | undefined => {
    if (head.method !== "POST") return METHOD_NOT_ALLOWED;
    if (!isJsonMediaType(head.contentType)) return UNSUPPORTED_MEDIA_TYPE;
    const length = head.declaredLength;
    return length !== undefined && length > config.bodyLimitBytes ? overLimit : undefined;
  };
  return (head) => {
    if (!callerAllowed(head)) return SOURCE_NOT_ALLOWED;
    return tokenAccepted(head.token) ? rest(head) : NOT_FOUND;
  };
}

/**
 * The body's length as the request declares it, or undefined when it declares none (no
 * Content-Length, or a Transfer-Encoding, which overrides it): such a body is counted as it
 * streams in. The apiserver's always declare one.
 */
export function declaredLength(header: (name: string) => string | undefined): number | undefined {
  const length = header("content-length");
  if (length === undefined || header("transfer-encoding") !== undefined) return undefined;
  // Anything but one plain number (a repeated header joined with ", ") is counted as it streams.
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : undefined;
}

/** Whether the caller's network may call at all; unknown addresses are refused (fail closed). */
function callerNetworkCheck(allowed: Config["allowedCallers"], log: Logger): (head: RequestHead) => boolean {
  if (!allowed) return () => true;
  let unknownCallerLogged = false;
  return (head) => {
    const address = head.callerAddress();
    if (address === undefined && !unknownCallerLogged) {
      unknownCallerLogged = true;
      log({
        level: "error",
        msg: "CRDSHIFT_ALLOWED_SOURCES is set, but this platform gives no caller address: refusing every request",
      });
    }
    return address !== undefined && allowed.matches(address);
  };
}

/** `application/json` or any `application/*+json`, parameters allowed (a proxy may add them). */
export function isJsonMediaType(header: string | undefined): boolean {
  if (header === "application/json") return true;
  if (!header) return false;
  const type = header.split(";", 1)[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}
