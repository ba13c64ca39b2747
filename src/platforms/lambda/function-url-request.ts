import { type InMemory, LightBody } from "./function-url-body";
import { LightHeaders } from "./function-url-headers";

/**
 * The `Request` Hono reads, made from a function URL event without Node's fetch implementation:
 * method, URL, headers and a body already in memory. What Hono touches for a review (url,
 * method, headers.get, text) is all here; `signal` never aborts (Lambda ends a timed-out
 * invocation itself).
 */
export class EventRequest extends LightBody<InMemory> {
  readonly cache = "default";
  readonly credentials = "same-origin";
  readonly destination = "";
  readonly integrity = "";
  readonly keepalive = false;
  readonly mode = "cors";
  readonly redirect = "follow";
  readonly referrer = "about:client";
  readonly referrerPolicy = "";
  #signal: AbortSignal | undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: LightHeaders,
    body: InMemory,
  ) {
    super(body);
  }

  get signal(): AbortSignal {
    this.#signal ??= new AbortController().signal;
    return this.#signal;
  }

  clone(): EventRequest {
    return new EventRequest(this.method, this.url, new LightHeaders(this.headers), this.unreadBody());
  }

  get [Symbol.toStringTag](): string {
    return "Request";
  }
}
