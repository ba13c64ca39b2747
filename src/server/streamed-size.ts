import { BUSY, bodyTooLarge } from "./admission";
import type { Lease } from "./bytes-in-flight";
import { heldAtLeast } from "../conversion";
import type { HttpReply } from "./http-reply";
import type { Report } from "./report";

/** A streamed body's text, or the reply that rejects it. */
export type StreamedBody = { text: string } | { rejected: HttpReply };

/**
 * The read of a body sent without a length (chunked), in the Hono app: counted as it streams in,
 * against the body limit and against the memory in flight (`lease`: the least its bytes will hold), so neither is passed by a
 * body that did not say its size. Over either, the rest is cancelled, unread: such a body is
 * not worth the time to drain.
 */
export function createStreamedBodyRead(
  limitBytes: number,
  report: Report,
): (request: Request, lease: Lease) => Promise<StreamedBody> {
  const overLimit = bodyTooLarge(limitBytes);
  return async (request, lease) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = request.body?.getReader();
    try {
      for (;;) {
        const next = await reader?.read();
        if (!next || next.done) break;
        size += next.value.byteLength;
        const rejection =
          size > limitBytes ? overLimit : lease.grow(heldAtLeast(next.value.byteLength)) ? undefined : BUSY;
        if (rejection) {
          void reader!.cancel().catch(() => {});
          return { rejected: report.reject(rejection) };
        }
        chunks.push(next.value);
      }
    } catch (error) {
      // A broken upload or malformed chunking.
      return { rejected: report.unreadable(error) };
    }
    return { text: utf8(chunks, size) };
  };
}

/** The text as the Fetch API's text() reads it: invalid bytes replaced, a leading BOM dropped. */
function utf8(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0]);
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(whole);
}
