import { clip } from "./clip";
import { encodeJson } from "./codec";

/** Characters of a value a message shows by default: enough to know it, not the object it may be. */
const SHOWN_LIMIT = 120;

/**
 * A value as every message and report shows it: JSON, an integer beyond 2^53 (a bigint) as its
 * exact digits wherever it is, clipped to `limit` characters; `missing` for no value. What JSON
 * cannot write (a cycle, a function) shows as its type tag, `[object Object]`.
 */
export function showValue(value: unknown, limit = SHOWN_LIMIT): string {
  if (value === undefined) return "missing";
  let text: string | undefined;
  try {
    text = encodeJson(value, true);
  } catch {
    text = undefined;
  }
  return clip(text ?? Object.prototype.toString.call(value), limit);
}
