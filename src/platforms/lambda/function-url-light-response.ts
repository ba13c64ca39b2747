import { type BodySource, LightBody } from "./function-url-body";
import { extractBody } from "./function-url-body-init";
import { type HeadersSource, LightHeaders } from "./function-url-headers";

/**
 * A `Response` made without Node's fetch implementation (undici), which the Lambda entry makes the
 * process's global `Response` (global-response.ts) so that a cold start does not load undici. Bodies in memory (text,
 * bytes: every reply Hono builds for crdshift) are read at once; a ReadableStream, a Blob,
 * URLSearchParams or an async iterable are carried too, a stream read when the body is.
 *
 * Node's own Response is not reachable once this one is installed: on Node 22 and later the
 * global is a V8 lazy data property, which reading, describing or redefining loads undici, and
 * whose loader has no JavaScript handle; only deleting it does not. So this class does all of
 * it: `Response.error()` and `Response.redirect()` too, and a FormData body, which would need
 * undici's multipart encoder, is a TypeError that says so. Node's own responses (from `fetch`)
 * still pass `instanceof Response`, recognised by their `Symbol.toStringTag`.
 */

/** The first argument that builds a response from its parts (clone, error, redirect). */
const PARTS = Symbol("response parts");

interface Parts {
  source: BodySource;
  status: number;
  statusText: string;
  headers: LightHeaders;
  type: ResponseType;
}

const NULL_BODY_STATUSES = new Set([204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function partsOf(body: unknown, init: ResponseInit | Response | LightResponse | undefined): Parts {
  const { source, type } = extractBody(body);
  const status = init?.status ?? 200;
  if (!Number.isInteger(status) || status < 200 || status > 599)
    throw new RangeError(`invalid response status: ${status}`);
  if (source !== null && NULL_BODY_STATUSES.has(status)) throw new TypeError(`a ${status} response cannot have a body`);
  const headers = new LightHeaders(init?.headers as HeadersSource | undefined);
  if (type !== null && !headers.has("content-type")) headers.set("content-type", type);
  return { source, status, statusText: init?.statusText ?? "", headers, type: "default" };
}

export class LightResponse extends LightBody {
  readonly #status: number;
  readonly #statusText: string;
  readonly #headers: LightHeaders;
  readonly #type: ResponseType;
  readonly url = "";
  readonly redirected = false;

  constructor(body?: unknown, init?: ResponseInit | Response | LightResponse) {
    const parts = body === PARTS ? (init as unknown as Parts) : partsOf(body, init);
    super(parts.source);
    this.#status = parts.status;
    this.#statusText = parts.statusText;
    this.#headers = parts.headers;
    this.#type = parts.type;
  }

  static json(data: unknown, init?: ResponseInit): LightResponse {
    const headers = new LightHeaders(init?.headers as HeadersSource | undefined);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    return new LightResponse(JSON.stringify(data), { ...init, headers });
  }

  /** A network error, as fetch's: type "error", status 0, no body, headers that cannot change. */
  static error(): LightResponse {
    return LightResponse.#of({
      source: null,
      status: 0,
      statusText: "",
      headers: new LightHeaders(undefined, "immutable"),
      type: "error",
    });
  }

  /** A redirect to an absolute URL (there is no document to resolve a relative one against). */
  static redirect(url: string | URL, status: number = 302): LightResponse {
    const text = String(url);
    let target: URL;
    try {
      target = new URL(text);
    } catch (cause) {
      throw new TypeError(`Response.redirect needs an absolute URL, not ${JSON.stringify(text)}`, { cause });
    }
    // WebIDL's unsigned short, as fetch converts the status: the integer part, modulo 2^16.
    const code = Number(status) & 0xffff;
    if (!REDIRECT_STATUSES.has(code))
      throw new RangeError(`Response.redirect takes a redirect status (301, 302, 303, 307 or 308), not ${code}`);
    return LightResponse.#of({
      source: null,
      status: code,
      statusText: "",
      headers: new LightHeaders({ location: target.href }, "immutable"),
      type: "default",
    });
  }

  static #of(parts: Parts): LightResponse {
    return new LightResponse(PARTS, parts as unknown as ResponseInit);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object Response]";
  }

  get status(): number {
    return this.#status;
  }

  get statusText(): string {
    return this.#statusText;
  }

  get headers(): LightHeaders {
    return this.#headers;
  }

  get type(): ResponseType {
    return this.#type;
  }

  get ok(): boolean {
    return this.#status >= 200 && this.#status <= 299;
  }

  clone(): LightResponse {
    const headers = new LightHeaders(this.#headers, this.#headers.guard);
    return LightResponse.#of({
      source: this.unreadBody(),
      status: this.#status,
      statusText: this.#statusText,
      headers,
      type: this.#type,
    });
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }
}
