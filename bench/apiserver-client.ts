import { Agent, request } from "node:http";

/** The apiserver gives a conversion webhook call 30 s (`?timeout=30s`), then fails it. */
const TIMEOUT_MS = 30_000;

/** One call as the client saw it; the reply is kept to be checked after the scenario. */
export interface Call {
  /** The request body sent: the checks need the review it holds. */
  sent: string;
  status: number;
  contentType: string;
  /** The reply's bytes as they came: gzip-compressed when `gzip` is set. */
  reply: Buffer;
  /** The server compressed the reply (Content-Encoding: gzip), as workerd does when asked. */
  gzip: boolean;
  /** Request written to reply read, as the apiserver's webhook client times it. */
  ms: number;
  /** Set by the Lambda stand-in on an instance's first invocation: a cold start. */
  cold: boolean;
}

/**
 * The kube-apiserver's webhook client, as far as a load shows it: Go's http.Transport keeps
 * connections alive in a pool and sends one request per connection at a time, so `concurrency`
 * calls in flight use at most that many connections, opened once and reused. The headers are
 * the ones client-go sends (apiserver contract §2); the path carries `?timeout=30s`. Go's
 * transport asks for gzip and inflates the reply itself; here that is left to whoever checks
 * the reply, after the load.
 */
export class ApiserverClient {
  private agent: Agent;

  constructor(
    private url: URL,
    concurrency: number,
    /** Ask for a gzip reply, as Go's transport does unless compression is turned off. */
    private gzip = true,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  }

  call(body: string): Promise<Call> {
    return new Promise((resolve, reject) => {
      const start = performance.now();
      const req = request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method: "POST",
          path: `${this.url.pathname}?timeout=30s`,
          headers: {
            "content-type": "application/json",
            accept: "application/json, */*",
            ...(this.gzip ? { "accept-encoding": "gzip" } : {}),
            "user-agent": "kube-apiserver-admission",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              sent: body,
              status: res.statusCode ?? 0,
              contentType: String(res.headers["content-type"] ?? ""),
              reply: Buffer.concat(chunks),
              gzip: res.headers["content-encoding"] === "gzip",
              ms: performance.now() - start,
              cold: res.headers["x-bench-cold"] === "1",
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error("no reply within the apiserver's 30 s timeout")));
      req.end(body);
    });
  }

  /** Closes the pool's connections, as an apiserver that restarts would. */
  close(): void {
    this.agent.destroy();
  }
}
