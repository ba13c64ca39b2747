import { InMemoryBody, type InMemory } from "./body";
import { LightHeaders, type HeadersSource } from "./headers";

/**
 * A `Response` for bodies that are already in memory (text, bytes, nothing), which is every
 * reply Hono builds for crdshift. Installed as the global `Response` by the Lambda entry, so
 * that Node's fetch implementation (undici) is not loaded on a cold start; any other body (a
 * stream, a Blob, form data) is handed to Node's own `Response`, loaded then.
 */

/** Node's own `Response`, read from its lazy global getter only when first needed. */
let nativeResponse: typeof Response | undefined;
let nativeGetter: (() => typeof Response) | undefined;

function realResponse(): typeof Response {
  if (nativeResponse) return nativeResponse;
  if (!nativeGetter) throw new Error("LightResponse is not installed");
  return (nativeResponse = nativeGetter());
}

function inMemory(body: unknown): InMemory | undefined {
  if (body == null) return null;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

export class LightResponse extends InMemoryBody {
  // Assigned below, unless the constructor hands the body to Node's own Response instead.
  readonly status!: number;
  readonly statusText!: string;
  override readonly headers!: Headers;
  readonly type = "default";
  readonly url = "";
  readonly redirected = false;

  constructor(body?: unknown, init?: ResponseInit | Response | LightResponse) {
    const content = inMemory(body);
    super(content ?? null);
    // Anything not already in memory is the real Response's business.
    if (content === undefined) return new (realResponse())(body as BodyInit, init as ResponseInit) as unknown as LightResponse;
    const status = init?.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`invalid response status: ${status}`);
    if (content !== null && (status === 204 || status === 205 || status === 304)) throw new TypeError(`a ${status} response cannot have a body`);
    this.status = status;
    this.statusText = init?.statusText ?? "";
    this.headers = new LightHeaders(init?.headers as HeadersSource | undefined);
    if (typeof content === "string" && !this.headers.has("content-type")) this.headers.set("content-type", "text/plain;charset=UTF-8");
  }

  static json(data: unknown, init?: ResponseInit): LightResponse {
    const headers = new LightHeaders(init?.headers as HeadersSource | undefined);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    return new LightResponse(JSON.stringify(data), { ...init, headers });
  }

  static error(): Response {
    return realResponse().error();
  }

  static redirect(url: string | URL, status?: number): Response {
    return realResponse().redirect(url, status);
  }

  /** Node's own responses (from fetch, or bodies handed over) are Responses too. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    if (Object.prototype.isPrototypeOf.call(LightResponse.prototype, value)) return true;
    return Object.prototype.toString.call(value) === "[object Response]" && value instanceof realResponse();
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  clone(): LightResponse {
    return new LightResponse(this.unreadBody(), this);
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }
}

/**
 * Makes the global `Response` the light one for this process, keeping Node's own lazy getter
 * for what it cannot do. Only the Lambda entry calls this: the process is the function's alone.
 */
export function installLightResponse(): void {
  if (nativeGetter) return;
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "Response");
  const getter = descriptor?.get;
  nativeGetter = getter ? () => getter.call(globalThis) : () => descriptor?.value;
  Object.defineProperty(globalThis, "Response", { value: LightResponse, writable: true, configurable: true, enumerable: false });
}
