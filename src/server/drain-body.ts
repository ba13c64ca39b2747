/**
 * Reads and discards the body of a request answered without reading it (a 404, 405, 415, 429),
 * so that the connection can carry the next request: workerd drops a kept-alive connection
 * whose request body was left unread, and cancelling the body does not spare it. Nothing is
 * kept, chunk by chunk. A body declared or found to be over `limitBytes` is not worth the time:
 * it is left unread or cancelled, and the platform closes the connection or discards the rest
 * itself (Node).
 */
export async function drainBody(request: Request, limitBytes: number): Promise<void> {
  if (request.bodyUsed || request.body === null) return;
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limitBytes) return;
  const reader = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      size += next.value.byteLength;
      if (size > limitBytes) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The upload broke off: there is no connection left to keep.
  }
}
