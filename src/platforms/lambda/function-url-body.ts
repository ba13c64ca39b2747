/**
 * The body half of `Request` and `Response` without Node's fetch implementation. A function URL
 * event's body and every crdshift reply are in memory and read at once, as text, bytes, JSON or
 * a stream. Anything else a Response may be given (a ReadableStream, a Blob, an async iterable)
 * arrives here as a stream, read to its end when the body is read: asynchronously, as fetch does.
 */
export type InMemory = string | Uint8Array | null;
export type BodySource = InMemory | ReadableStream<Uint8Array>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Tested without touching the global ReadableStream: the in-memory path stays free of it.
function isInMemory(source: BodySource): source is InMemory {
  return source === null || typeof source === "string" || source instanceof Uint8Array;
}

async function readToEnd(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  // getReader() refuses a stream someone else is reading (a TypeError, as fetch's).
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array))
      throw new TypeError(`a body stream must yield Uint8Array chunks, not ${Object.prototype.toString.call(value)}`);
    chunks.push(value);
    length += value.byteLength;
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export abstract class LightBody<Source extends BodySource = BodySource> {
  abstract readonly headers: Headers;
  #source: Source;
  #used = false;
  #stream: ReadableStream<Uint8Array> | null | undefined;

  constructor(source: Source) {
    this.#source = source;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /**
   * The body as a stream: a stream body itself, or one over the bytes in memory made on first
   * use. Reading it directly does not mark the body used here.
   */
  get body(): ReadableStream<Uint8Array> | null {
    const source = this.#source;
    if (!isInMemory(source)) return source;
    if (this.#stream !== undefined) return this.#stream;
    if (source === null) {
      this.#stream = null;
      return null;
    }
    const bytes = typeof source === "string" ? encoder.encode(source) : source;
    this.#stream = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    return this.#stream;
  }

  async text(): Promise<string> {
    const body = await this.#read();
    if (body === null) return "";
    // fetch's text() decodes UTF-8 and drops one leading byte order mark; a string body (the
    // function URL's text event) reads the same as its bytes would.
    if (typeof body === "string") return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
    return decoder.decode(body);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const body = await this.#read();
    if (body === null) return new ArrayBuffer(0);
    const bytes = typeof body === "string" ? encoder.encode(body) : body;
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get("content-type") ?? "" });
  }

  /** The body for a clone: refused once read, as fetch does; a stream is split in two (tee). */
  protected unreadBody(): Source {
    if (this.#used) throw new TypeError("cannot clone: the body has already been read");
    const source = this.#source;
    if (isInMemory(source)) return source;
    const [mine, theirs] = source.tee();
    this.#source = mine as Source;
    return theirs as Source;
  }

  #read(): Promise<InMemory> | InMemory {
    if (this.#used) throw new TypeError("Body is unusable: the body has already been read");
    const source = this.#source;
    if (source !== null) this.#used = true;
    return isInMemory(source) ? source : readToEnd(source);
  }
}
