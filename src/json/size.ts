/** Sizes of text as it travels: the limits the apiserver and the platforms count in bytes. */

/** UTF-8 bytes of `text`, or of its part from `start` to `end` (exclusive). */
export function utf8Length(text: string, start = 0, end = text.length): number {
  let bytes = end - start;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Bytes of `text` once embedded in a JSON string, as Lambda carries a response body inside its
 * result document: UTF-8, plus one byte for each escaped quote or backslash and five for each
 * control character (`\u00XX`, an upper bound). The platform's 6 MB cap applies to that.
 */
export function embeddedJsonBytes(text: string): number {
  let escapes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) escapes += 1;
    else if (code < 0x20) escapes += 5;
  }
  return utf8Length(text) + escapes;
}

/** Whether `text` embedded in a JSON string exceeds `limit` bytes; counts only when needed. */
export function exceedsEmbedded(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 6 <= limit) return false; // no character takes more than 6 bytes
  return embeddedJsonBytes(text) > limit;
}
