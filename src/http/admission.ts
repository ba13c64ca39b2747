import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { timingSafeEqual } from "hono/utils/buffer";
import type { Config } from "../config";
import type { Logger } from "../log";
import type { Report } from "./report";

export interface AdmissionOptions {
  config: Config;
  log: Logger;
  report: Report;
  /** The caller's address as the platform saw it (see AppOptions.callerAddress). */
  callerAddress?: (c: Context) => string | undefined;
  /** The hash tokens go through before their constant-time comparison (see AppOptions.tokenHash). */
  tokenHash?: (text: string) => string | Promise<string>;
}

/** The refusal of a request that may not be read as a review, or undefined to go on. */
export type Admission = (c: Context) => Promise<Response | undefined>;

/**
 * Why a request is refused before its body is read, in this order: the caller's network and
 * the token (so nothing else is revealed without them), the method, the content type, the size.
 * Plain checks in a row rather than a middleware chain: every request passes them.
 */
export function createAdmission({ config, log, report, callerAddress, tokenHash }: AdmissionOptions): Admission {
  const callerAllowed = callerNetworkCheck(config.allowedCallers, callerAddress, log);
  const sizeRefusal = bodySizeCheck(config.bodyLimitBytes, report);
  const { tokens } = config;
  return async (c) => {
    if (!callerAllowed(c)) return report.refuse(c, "source-not-allowed", 404, "not found");
    const given = c.req.param("token");
    if (tokens.length === 0 ? given !== undefined : !(await tokenMatches(tokens, given, tokenHash)))
      return report.notFound(c);
    if (c.req.method !== "POST") {
      return report.refuse(c, "method-not-allowed", 405, "method not allowed: send the ConversionReview with POST", {
        headers: { Allow: "POST" },
      });
    }
    if (!isJsonMediaType(c.req.header("content-type"))) {
      return report.refuse(
        c,
        "unsupported-media-type",
        415,
        "unsupported media type: send Content-Type: application/json",
      );
    }
    return sizeRefusal(c);
  };
}

/** Whether the caller's network may call at all; unknown addresses are refused (fail closed). */
function callerNetworkCheck(
  allowed: Config["allowedCallers"],
  callerAddress: AdmissionOptions["callerAddress"],
  log: Logger,
): (c: Context) => boolean {
  if (!allowed) return () => true;
  let unknownCallerLogged = false;
  return (c) => {
    const address = callerAddress?.(c);
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

/** Whether `given` is one of the accepted path tokens. */
export async function tokenMatches(
  tokens: readonly string[],
  given: string | undefined,
  hash?: (text: string) => string | Promise<string>,
): Promise<boolean> {
  if (given === undefined) return false;
  // Compare against every token, so timing does not tell which one matched.
  const results = await Promise.all(tokens.map((token) => timingSafeEqual(token, given, hash)));
  return results.includes(true);
}

/** `application/json` or any `application/*+json`, parameters allowed (a proxy may add them). */
export function isJsonMediaType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(";", 1)[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * The 413 of a body over the limit, decided before the body is parsed. Synchronous when the
 * request gives its length, as the apiserver's always do: no promise on the common path.
 */
function bodySizeCheck(
  limitBytes: number,
  report: Report,
): (c: Context) => Response | undefined | Promise<Response | undefined> {
  const tooLarge = (c: Context) =>
    report.refuse(c, "too-large", 413, `request body is larger than the limit of ${limitBytes} bytes`);
  // Bodies without a length are counted as they stream in, by Hono's bodyLimit.
  const streamedSizeGuard = bodyLimit({ maxSize: limitBytes, onError: tooLarge });
  const streamed = async (c: Context) => {
    let within = false;
    let response: Response | undefined;
    try {
      // Reads the whole body, counting it: a broken upload fails here.
      response =
        (await streamedSizeGuard(c, async () => {
          within = true;
        })) ?? undefined;
    } catch (error) {
      return report.unreadable(c, error);
    }
    return within ? undefined : (response ?? tooLarge(c));
  };
  return (c) => {
    // Deciding from Content-Length alone keeps the Node adapter's fast body read (touching the
    // body stream first would build a full Request).
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return streamed(c);
    return Number(length) > limitBytes ? tooLarge(c) : undefined;
  };
}
