import { quote } from "../../json/index";

/**
 * A `Headers` that does not load Node's fetch implementation (undici), which Node only loads the
 * first time any of `Headers`, `Request` or `Response` is touched: a large share of a Lambda
 * cold start (docs/performance.md: Lambda cold start). Same behaviour for what Hono and the
 * adapter use: names are case-insensitive, values trimmed, repeated values joined with ", "
 * (Set-Cookie kept apart), iteration in name order.
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function headerName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`invalid header name: ${quote(text)}`);
  return text.toLowerCase();
}

function headerValue(value: string): string {
  const text = String(value).replace(OUTER_WHITESPACE, "");
  if (/[\0\r\n]/.test(text)) throw new TypeError("invalid header value");
  return text;
}

export type HeadersSource = Headers | Record<string, string | readonly string[]> | Iterable<readonly [string, string]>;

/** "immutable": the headers of `Response.error()` and `Response.redirect()`, which refuse changes as fetch's do. */
export type HeadersGuard = "none" | "immutable";

export class LightHeaders implements Headers {
  readonly #values = new Map<string, string>();
  readonly #cookies: string[] = [];
  #guard: HeadersGuard = "none";

  constructor(init?: HeadersSource, guard: HeadersGuard = "none") {
    this.#fill(init);
    this.#guard = guard;
  }

  get guard(): HeadersGuard {
    return this.#guard;
  }

  #fill(init: HeadersSource | undefined): void {
    if (init == null) return;
    if (typeof (init as Headers).forEach === "function" && typeof (init as Headers).get === "function") {
      const source = init as Headers;
      source.forEach((value, name) => {
        if (name.toLowerCase() !== "set-cookie") this.append(name, value);
      });
      for (const cookie of source.getSetCookie?.() ?? []) this.append("set-cookie", cookie);
    } else if (typeof (init as Iterable<unknown>)[Symbol.iterator] === "function") {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2) throw new TypeError("a header pair must have a name and a value");
        this.append(pair[0], pair[1]);
      }
    } else {
      for (const [name, value] of Object.entries(init as Record<string, string | readonly string[]>)) {
        if (Array.isArray(value)) for (const one of value) this.append(name, one);
        else this.append(name, value as string);
      }
    }
  }

  append(name: string, value: string): void {
    this.#mutable();
    const key = headerName(name);
    const text = headerValue(value);
    if (key === "set-cookie") this.#cookies.push(text);
    else {
      const previous = this.#values.get(key);
      this.#values.set(key, previous === undefined ? text : `${previous}, ${text}`);
    }
  }

  set(name: string, value: string): void {
    this.#mutable();
    const key = headerName(name);
    const text = headerValue(value);
    if (key === "set-cookie") this.#cookies.splice(0, this.#cookies.length, text);
    else this.#values.set(key, text);
  }

  delete(name: string): void {
    this.#mutable();
    const key = headerName(name);
    if (key === "set-cookie") this.#cookies.length = 0;
    else this.#values.delete(key);
  }

  get(name: string): string | null {
    const key = headerName(name);
    if (key === "set-cookie") return this.#cookies.length === 0 ? null : this.#cookies.join(", ");
    return this.#values.get(key) ?? null;
  }

  has(name: string): boolean {
    const key = headerName(name);
    return key === "set-cookie" ? this.#cookies.length > 0 : this.#values.has(key);
  }

  getSetCookie(): string[] {
    return [...this.#cookies];
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    const names = [...this.#values.keys()];
    if (this.#cookies.length > 0) names.push("set-cookie");
    for (const name of names.sort()) {
      if (name === "set-cookie") for (const cookie of this.#cookies) yield [name, cookie];
      else yield [name, this.#values.get(name)!];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  #mutable(): void {
    if (this.#guard === "immutable")
      throw new TypeError("these headers are immutable (a Response.error() or Response.redirect() response's)");
  }
}
