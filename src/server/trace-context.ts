/**
 * The caller's trace, as log fields: W3C Trace Context's `traceparent`, which the kube-apiserver
 * sends on its webhook calls when its tracing is on. The header is the caller's to write, so it
 * is read strictly, and only the two ids it carries, re-checked as hex, ever reach a log line.
 */

/** Fields added to a request's log lines: ids only, never a header's raw text. */
export type TraceFields = Readonly<Record<string, string>>;

/** `version-traceid-parentid-flags`: the length of version 00, and the prefix of any later one. */
const VERSION_00_LENGTH = 55;
// Lower-case hex only: the spec's HEXDIGLC, and a header in upper case is invalid.
// One test without captures, then slices: the cheapest reading of a well-formed header.
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
const ZERO_TRACE_ID = "0".repeat(32);
const ZERO_PARENT_ID = "0".repeat(16);

/**
 * `traceId` and `spanId` (the apiserver's span of this call) from a `traceparent` header, or
 * undefined for anything the spec says to ignore. A later version than 00 is read as its first
 * four fields, where a `-` follows them if it goes on (the spec's rule for versions it does not
 * know yet); version ff is invalid. Two headers joined by `, ` fail both rules.
 */
export function traceparentFields(header: string | undefined): TraceFields | undefined {
  if (header === undefined || header.length < VERSION_00_LENGTH) return undefined;
  if (!TRACEPARENT.test(header.length === VERSION_00_LENGTH ? header : header.slice(0, VERSION_00_LENGTH)))
    return undefined;
  const version = header.slice(0, 2);
  if (version === "ff") return undefined;
  if (header.length > VERSION_00_LENGTH && (version === "00" || header[VERSION_00_LENGTH] !== "-")) return undefined;
  const traceId = header.slice(3, 35);
  const spanId = header.slice(36, 52);
  if (traceId === ZERO_TRACE_ID || spanId === ZERO_PARENT_ID) return undefined;
  return { traceId, spanId };
}

/** Both sources of a request's trace fields, the caller's and the platform's; either may be absent. */
export function traceFields(
  caller: TraceFields | undefined,
  platform: TraceFields | undefined,
): TraceFields | undefined {
  if (caller === undefined) return platform;
  return platform === undefined ? caller : { ...caller, ...platform };
}
