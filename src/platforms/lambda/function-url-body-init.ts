import type { BodySource } from "./function-url-body";

/**
 * What `new Response(body)` makes of each kind of body the Fetch standard takes, without Node's
 * fetch implementation: the source a LightBody reads, and the content type the body implies
 * (set unless the headers name one). Text and bytes stay in memory; a ReadableStream, a Blob
 * or an async iterable become a stream read when the body is.
 */
export interface ExtractedBody {
  source: BodySource;
  type: string | null;
}

const TEXT = "text/plain;charset=UTF-8";

export function extractBody(body: unknown): ExtractedBody {
  if (body == null) return { source: null, type: null };
  if (typeof body === "string") return { source: body, type: TEXT };
  // Bytes are copied, as fetch does: what the caller changes afterwards is not sent.
  if (ArrayBuffer.isView(body))
    return {
      source: new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)),
      type: null,
    };
  if (body instanceof ArrayBuffer) return { source: new Uint8Array(body.slice(0)), type: null };
  if (body instanceof URLSearchParams)
    return { source: body.toString(), type: "application/x-www-form-urlencoded;charset=UTF-8" };
  // By tag, so that neither Blob nor FormData need be touched: FormData is undici's own.
  const tag = Object.prototype.toString.call(body);
  if (tag === "[object FormData]") {
    throw new TypeError(
      "crdshift's Lambda Response cannot send a FormData body: Node's own Response is left unloaded there, to keep its fetch implementation out of the cold start; send the form as text or bytes",
    );
  }
  const blob = body as Blob;
  if ((tag === "[object Blob]" || tag === "[object File]") && typeof blob.stream === "function")
    return { source: blob.stream() as ReadableStream<Uint8Array>, type: blob.type || null };
  if (body instanceof ReadableStream) {
    if (body.locked)
      throw new TypeError("Response body object should not be disturbed or locked: the stream is being read already");
    return { source: body as ReadableStream<Uint8Array>, type: null };
  }
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function")
    return { source: streamOf(body as AsyncIterable<unknown>), type: null };
  // Anything else is sent as its string, as fetch converts it (a symbol throws a TypeError).
  return { source: `${body as string}`, type: TEXT };
}

/** The chunks of an async iterable as bytes: strings as UTF-8, as Node's fetch takes them. */
function streamOf(iterable: AsyncIterable<unknown>): ReadableStream<Uint8Array> {
  let iterator: AsyncIterator<unknown>;
  return new ReadableStream<Uint8Array>({
    start() {
      iterator = iterable[Symbol.asyncIterator]();
    },
    async pull(controller) {
      // Until a chunk with bytes in it: a pull that enqueues nothing would not be called again.
      for (;;) {
        const { done, value } = await iterator.next();
        if (done) return controller.close();
        const bytes = value instanceof Uint8Array ? value : Buffer.from(value as string);
        if (bytes.byteLength > 0) return controller.enqueue(bytes);
      }
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}
