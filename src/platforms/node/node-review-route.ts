import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Context } from "hono";
import {
  type Webhook,
  BUSY,
  declaredLength,
  type RequestHead,
  type Lease,
  type HttpReply,
  JSON_CONTENT_TYPE,
} from "../../server";

/**
 * The Node server's request listener: reviews the apiserver sends take the server's own route;
 * everything else goes to the Hono app on @hono/node-server, as that package's `serve()` would
 * hand it. `hostname` stands in for a request without a Host header.
 */
export function nodeRequestListener(webhook: Webhook, hostname: string): RequestListener {
  return nodeReviewRoute(webhook, getRequestListener(webhook.app.fetch, { hostname }));
}

/** The caller's address in the Hono app on Node: the socket's peer, which no header can forge. */
export function nodeCallerAddress(c: Context): string | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
}

/**
 * The Node server's own way for the requests a cluster sends: a POST of a review with a
 * declared length, to `/convert` or `/convert/<token>` (with the apiserver's `?timeout=30s`),
 * admitted by the app's checks. It calls the same functions as the Hono app's route (admission,
 * the review route, the report) and writes their reply straight to the socket, without building
 * a Request and a Response for it: on a single-object review that machinery costs about a sixth
 * of the server's CPU. Everything else, every refusal included, goes to `fallback`, the Hono app
 * on @hono/node-server, which answers it as on every platform (docs/architecture.md).
 */
export function nodeReviewRoute(
  { admit, review, inFlight, report }: Webhook,
  fallback: RequestListener,
): RequestListener {
  return (req, res) => {
    const target = req.method === "POST" ? REVIEW_TARGET.exec(req.url ?? "") : null;
    if (target === null) return fallback(req, res);
    const { rawHeaders } = req;
    const { host, fields } = reviewHeaders(rawHeaders);
    // Bodies without a length are counted as they stream in, by the app's route.
    if (fields["content-length"] === undefined || fields["transfer-encoding"] !== undefined) return fallback(req, res);
    // A Host the adapter would not take as it is (it may refuse it) goes through the adapter.
    if (!PLAIN_HOST.test(host ?? "")) return fallback(req, res);
    const head: RequestHead = {
      method: "POST",
      token: target[1],
      header: (name) => (isReviewField(name) ? fields[name] : fetchHeader(rawHeaders, name)),
      callerAddress: () => req.socket.remoteAddress,
    };
    const length = declaredLength(head);
    if (length === undefined) return fallback(req, res);
    // Admitted, the review starts (its budget, and a cold start's first review is this one).
    let answer: ((body: string) => HttpReply | Promise<HttpReply>) | undefined;
    try {
      if (admit(head) === undefined) answer = review();
    } catch (error) {
      return send(res, report.internalError(error));
    }
    // A refusal is the app's to answer, counted and logged once there; it runs the same checks.
    if (answer === undefined) return fallback(req, res);
    const answering = answer;
    const read = (lease: Lease) =>
      readBody(
        req,
        (text) => reply(res, report, lease, () => answering(text())),
        (error) => reply(res, report, lease, () => report.unreadable(error)),
      );
    const lease = inFlight.tryReserve(length);
    if (lease) return read(lease);
    // In line, the body stays unread in the socket; a caller gone meanwhile gets nothing.
    let gone = false;
    req.once("close", () => (gone = true));
    void inFlight.reserve(length).then((granted) => {
      if (!granted) return send(res, report.reject(BUSY));
      if (gone) return granted.release();
      read(granted);
    });
  };
}

/**
 * Sends what `work` replies, or a 500 where it throws or rejects, as the Hono app's onError
 * answers: called from the request's events, a throw would otherwise end the process. The
 * request's bytes in flight are released as its reply goes out, however it ends.
 */
function reply(
  res: ServerResponse,
  report: Webhook["report"],
  lease: Lease,
  work: () => HttpReply | Promise<HttpReply>,
): void {
  const answer = (replied: HttpReply) => {
    lease.release();
    send(res, replied);
  };
  try {
    const replied = work();
    if (!(replied instanceof Promise)) return answer(replied);
    replied.then(answer, (error: unknown) => answer(report.internalError(error)));
  } catch (error) {
    answer(report.internalError(error));
  }
}

/**
 * The request targets this route takes: the paths the Hono app routes to its review route (a
 * token's characters only, nothing to decode), with a plain query (`timeout=30s`) or none.
 */
const REVIEW_TARGET = /^\/convert(?:\/([A-Za-z0-9_-]+))?(?:\?[A-Za-z0-9._~=&:+,-]*)?$/;

/**
 * Hosts @hono/node-server takes as they are (lower-case name, an optional port it accepts
 * without parsing); for any other it builds a URL, which may refuse the request.
 */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5][0-9]{3,4}|[6-9][0-9]{3}))?$/;

/** A header as the Fetch API reads it, as the Hono app sees it: repeats joined with ", ". */
function fetchHeader(rawHeaders: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const field = rawHeaders[i]!;
    if (field.length === name.length && field.toLowerCase() === name) value = joined(value, rawHeaders[i + 1]!);
  }
  return value;
}

/** Without leading and trailing tabs, spaces, CR and LF: what Fetch strips, and only that. */
function trimHttpWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The headers this route and admission read, all in one pass over the request's header lines. */
type ReviewField = "content-length" | "transfer-encoding" | "content-type";

/** The ReviewFields as fetchHeader gives them, and the first Host (Node keeps only that). */
function reviewHeaders(rawHeaders: readonly string[]): {
  host: string | undefined;
  fields: Record<ReviewField, string | undefined>;
} {
  let host: string | undefined;
  const fields: Record<ReviewField, string | undefined> = {
    "content-length": undefined,
    "transfer-encoding": undefined,
    "content-type": undefined,
  };
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const field = rawHeaders[i]!;
    // The names' lengths differ: one comparison rules out most lines.
    const length = field.length;
    if (length !== 4 && length !== 12 && length !== 14 && length !== 17) continue;
    const name = field.toLowerCase();
    if (name === "host") host ??= rawHeaders[i + 1];
    else if (isReviewField(name)) fields[name] = joined(fields[name], rawHeaders[i + 1]!);
  }
  return { host, fields };
}

/** Compared, not looked up with `in`: a fresh string would be hashed first, and `in` sees inherited names. */
function isReviewField(name: string): name is ReviewField {
  return name === "content-length" || name === "transfer-encoding" || name === "content-type";
}

/** A repeated header's values as the Fetch API joins them. */
function joined(before: string | undefined, value: string): string {
  const part = trimHttpWhitespace(value);
  return before === undefined ? part : `${before}, ${part}`;
}

/**
 * The body to `done` (a function that decodes its text), or an error to `failed` when the upload
 * breaks off before its declared length: one of the two, once. Callbacks, not a promise: a read
 * is answered within its "end".
 */
function readBody(req: IncomingMessage, done: (read: () => string) => void, failed: (error: Error) => void): void {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => done(() => utf8Text(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))));
  // Every request closes after its "end"; one that closes before it lost its connection
  // mid-body. (An Error is built only then: its stack trace costs more than the rest of this.)
  // No "error" listener: IncomingMessage emits one only to listeners, and "close" follows it.
  req.on("close", () => {
    if (!req.readableEnded) failed(new Error("the connection closed before the whole body arrived"));
  });
}

/**
 * The text of UTF-8 bytes as the Fetch API's text() reads it (the Hono app's way): invalid bytes
 * replaced, a leading byte order mark dropped. Buffer's decoder, several times faster than
 * TextDecoder on a small body, replaces invalid bytes the same way (tested).
 */
export function utf8Text(bytes: Buffer): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString("utf8", bom ? 3 : 0);
}

/** One reply, headers and body in one write. */
function send(res: ServerResponse, { status, body, headers }: HttpReply): void {
  res.writeHead(status, {
    ...headers,
    "Content-Type": JSON_CONTENT_TYPE,
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}
