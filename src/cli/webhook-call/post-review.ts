import type { X509Certificate } from "node:crypto";
import * as http from "node:http";
import * as https from "node:https";
import type { TLSSocket } from "node:tls";
import { gunzipSync } from "node:zlib";
import type { Result } from "../../outcome";
import { apiserverUrl, type ReviewRequest } from "./review-request";

/** The apiserver's client timeout for a conversion webhook call; not configurable there. */
export const APISERVER_TIMEOUT_MS = 30_000;

export interface Connection {
  /**
   * PEM trust anchors, as the CRD's `caBundle`: when given, the only ones (as in client-go).
   * Undefined: Node's default roots, standing in for the apiserver host's system roots.
   */
  ca?: string;
  /**
   * Go on with a certificate the anchors do not verify, and say so in `tls.authorized`
   * (doctor reports it and still checks the replies). Otherwise such a call fails.
   */
  acceptUntrusted?: boolean;
  timeoutMs?: number;
  /** Connections open at once (default 8); the apiserver's client sets no such limit. */
  maxSockets?: number;
  /** Bytes a reply may have, on the wire and unzipped (default 64 MiB); a larger one fails the call. */
  maxReplyBytes?: number;
}

/** What the TLS handshake showed about the server. */
export interface TlsPeer {
  authorized: boolean;
  /** Why it is not trusted: a code (OpenSSL's, e.g. DEPTH_ZERO_SELF_SIGNED_CERT, or ERR_TLS_CERT_ALTNAME_INVALID). */
  authorizationError?: string;
  protocol: string | null;
  certificate?: X509Certificate;
}

/** Why a call got no reply to check: it ran out of time, or failed on the way (connection, TLS, the reply's bytes). */
export type CallFailure = "timeout" | "transport";

export type PostResult = Result<
  { status: number; body: string; contentType: string; location?: string; elapsedMs: number; tls?: TlsPeer },
  { failure: CallFailure; error: string; elapsedMs: number }
>;

const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/**
 * A caller that posts reviews as the apiserver's webhook client does (client-go's REST client
 * with the admission defaults): POST, `Content-Type: application/json`, `Accept: application/json,
 * *\/*`, `Accept-Encoding: gzip`, `User-Agent: kube-apiserver-admission`, a buffered body with its
 * length, HTTP/1.1 with keep-alive, TLS 1.2 or later, a 30 s timeout over the whole call.
 * Redirects are not followed: the reply's status and `Location` are reported as they are.
 */
export function createPoster(url: string, connection: Connection = {}) {
  const target = apiserverUrl(url);
  const secure = target.protocol === "https:";
  const agent = secure
    ? new https.Agent({
        keepAlive: true,
        maxSockets: connection.maxSockets ?? 8,
        minVersion: "TLSv1.2",
        rejectUnauthorized: !connection.acceptUntrusted,
        ...(connection.ca !== undefined ? { ca: connection.ca } : {}),
      })
    : new http.Agent({ keepAlive: true, maxSockets: connection.maxSockets ?? 8 });
  const timeoutMs = connection.timeoutMs ?? APISERVER_TIMEOUT_MS;
  const maxReplyBytes = connection.maxReplyBytes ?? MAX_REPLY_BYTES;

  const post = (request: ReviewRequest): Promise<PostResult> =>
    new Promise((resolve) => {
      const started = performance.now();
      const elapsed = () => performance.now() - started;
      const body = Buffer.from(request.body, "utf8");
      let settled = false;
      let headersIn = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const fail = (why: string, failure: CallFailure = "transport") =>
        finish({ ok: false, failure, error: `Post "${target.href}": ${why}`, elapsedMs: elapsed() });
      const send = secure ? https.request : http.request;
      const req = send(target, {
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, */*",
          "Accept-Encoding": "gzip",
          "User-Agent": "kube-apiserver-admission",
          "Content-Length": String(body.length),
        },
      });
      timer = setTimeout(() => {
        fail(
          `context deadline exceeded (Client.Timeout exceeded ${headersIn ? "while reading body" : "while awaiting headers"})`,
          "timeout",
        );
        req.destroy();
      }, timeoutMs);
      req.on("error", (error: NodeJS.ErrnoException) => fail(transportError(error, target)));
      req.on("response", (res) => {
        headersIn = true;
        // Read now: at the end of the body the socket goes back to the agent's pool.
        const tls = secure ? peerOf(res.socket as TLSSocket) : undefined;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxReplyBytes) {
            fail(`the reply is larger than ${maxReplyBytes} bytes`);
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("error", (error: NodeJS.ErrnoException) => fail(transportError(error, target)));
        res.on("end", () => {
          let raw = Buffer.concat(chunks);
          if (/^\s*gzip\s*$/i.test(res.headers["content-encoding"] ?? "")) {
            try {
              // Bounded as the bytes on the wire are: a small gzip can unpack to gigabytes.
              raw = gunzipSync(raw, { maxOutputLength: maxReplyBytes });
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
                return fail(`the reply is larger than ${maxReplyBytes} bytes once unzipped`);
              return fail(`gzip: ${(error as Error).message}`);
            }
          }
          finish({
            ok: true,
            status: res.statusCode ?? 0,
            body: raw.toString("utf8"),
            contentType: res.headers["content-type"] ?? "",
            ...(res.headers.location ? { location: res.headers.location } : {}),
            elapsedMs: elapsed(),
            ...(tls ? { tls } : {}),
          });
        });
      });
      req.end(body);
    });

  return { url: target, post, close: () => agent.destroy() };
}

function peerOf(socket: TLSSocket): TlsPeer {
  const certificate = socket.getPeerX509Certificate();
  const error = socket.authorizationError as unknown;
  return {
    authorized: socket.authorized,
    ...(error ? { authorizationError: error instanceof Error ? codeOrMessage(error) : String(error) } : {}),
    protocol: socket.getProtocol(),
    ...(certificate ? { certificate } : {}),
  };
}

function codeOrMessage(error: NodeJS.ErrnoException): string {
  return error.code ?? error.message;
}

/** Node's error in the words a Go client would use, where they differ. */
function transportError(error: NodeJS.ErrnoException, target: URL): string {
  const host = target.host;
  switch (error.code) {
    case "ECONNREFUSED":
      return `dial tcp ${host}: connect: connection refused`;
    case "ENOTFOUND":
      return `dial tcp: lookup ${target.hostname}: no such host`;
    case "ECONNRESET":
      return "EOF (the server closed the connection)";
    default: {
      const tls = error.code ? tlsErrorText(error.code, target.hostname) : undefined;
      return tls ? `tls: failed to verify certificate: ${tls}` : error.message || String(error.code);
    }
  }
}

/** OpenSSL's verification codes (as Node reports them) in the words of Go's x509 package. */
export function tlsErrorText(code: string, hostname: string): string | undefined {
  switch (code) {
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return `x509: certificate signed by unknown authority (${code})`;
    case "CERT_HAS_EXPIRED":
    case "CERT_NOT_YET_VALID":
      return `x509: certificate has expired or is not yet valid (${code})`;
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `x509: certificate is not valid for ${hostname}`;
    default:
      return undefined;
  }
}
