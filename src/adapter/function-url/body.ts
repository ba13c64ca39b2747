/**
 * The body half of `Request` and `Response` for a body already in memory, as a function URL
 * event's and every crdshift reply's are: read once, as text, bytes, JSON or a stream.
 */
export type InMemory = string | Uint8Array | null;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export abstract class InMemoryBody {
  abstract readonly headers: Headers;
  #body: InMemory;
  #used = false;
  #stream: ReadableStream<Uint8Array> | null | undefined;

  constructor(body: InMemory) {
    this.#body = body;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** A stream over the body, made on first use (reading it does not mark the body used here). */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#stream !== undefined) return this.#stream;
    const body = this.#body;
    if (body === null) return (this.#stream = null);
    const bytes = typeof body === "string" ? encoder.encode(body) : body;
    return (this.#stream = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }));
  }

  async text(): Promise<string> {
    const body = this.#take();
    if (body === null) return "";
    // fetch's text() decodes UTF-8 and drops one leading byte order mark; a string body (the
    // function URL's text event) reads the same as its bytes would.
    if (typeof body === "string") return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
    return decoder.decode(body);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const body = this.#take();
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

  /** The body for a clone: refused once read, as fetch does. */
  protected unreadBody(): InMemory {
    if (this.#used) throw new TypeError("cannot clone: the body has already been read");
    return this.#body;
  }

  #take(): InMemory {
    if (this.#used) throw new TypeError("Body is unusable: the body has already been read");
    if (this.#body !== null) this.#used = true;
    return this.#body;
  }
}
