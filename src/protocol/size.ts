/**
 * Bytes of `text` once embedded in a JSON string, as Lambda carries a response body inside its
 * result document: UTF-8, with quotes and backslashes escaped. The platform's 6 MB cap applies
 * to that, not to the raw body.
 */
export function embeddedJsonBytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x20) bytes += 6;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Whether `text` embedded in a JSON string exceeds `limit` bytes; counts only when needed. */
export function exceedsEmbedded(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 6 <= limit) return false; // no character takes more than 6 bytes
  return embeddedJsonBytes(text) > limit;
}
