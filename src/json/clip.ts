/**
 * Text from a request, as logs, metric dimensions and messages may repeat it: bounded, so that
 * a 20 MiB field costs a line of log, not 20 MB of it (and of every reply that names it).
 */

/**
 * Characters of one request-supplied field (a name, uid, kind, apiVersion) kept in an echo.
 * Above every valid Kubernetes value: `Kind.group` and `group/version` reach 317 characters
 * (a 253-character group, a 63-character kind or version), names 253, uids 36.
 */
export const ECHO_LIMIT = 400;

/**
 * Characters of a converter's error or a schema issue kept in a Failure message: room for a
 * sentence or a list of issues, not for the object they may quote.
 */
export const REASON_LIMIT = 2_000;

/**
 * `text`, or its first `limit` characters followed by `... (N more characters)` (ASCII, so a
 * clipped value is still a valid CloudWatch dimension). Never splits a
 * surrogate pair, so what is kept stays valid UTF-16 (and valid UTF-8 once encoded).
 */
export function clip(text: string, limit = ECHO_LIMIT): string {
  if (text.length <= limit) return text;
  const kept = keep(text, limit);
  return `${text.slice(0, kept)}${more(text.length - kept)}`;
}

/** `JSON.stringify(text)` for a message, clipped outside the quotes: `"abc"... (N more characters)`. */
export function quote(text: string, limit = ECHO_LIMIT): string {
  if (text.length <= limit) return JSON.stringify(text);
  const kept = keep(text, limit);
  return `${JSON.stringify(text.slice(0, kept))}${more(text.length - kept)}`;
}

/** How many leading UTF-16 units to keep: `limit`, one less where that would halve a pair. */
function keep(text: string, limit: number): number {
  const last = text.charCodeAt(limit - 1);
  return last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
}

function more(count: number): string {
  return `... (${count} more character${count === 1 ? "" : "s"})`;
}
