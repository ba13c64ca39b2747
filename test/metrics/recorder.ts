import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export interface RecordedCall {
  headers: IncomingHttpHeaders;
  /** The PutMetricData input as sent (AWS JSON 1.0). */
  body: {
    Namespace: string;
    MetricData: {
      MetricName: string;
      Unit?: string;
      Dimensions?: { Name: string; Value: string }[];
      Values?: number[];
      Counts?: number[];
    }[];
  };
}

/**
 * A stand-in for CloudWatch's endpoint on 127.0.0.1 that records every call it receives, and
 * answers as told: like the service (200 `{}`), with a 500, or never.
 */
export class MetricsRecorder {
  calls: RecordedCall[] = [];
  mode: "ok" | "fail" | "hang" = "ok";
  private server: Server;
  private waiters: Array<() => void> = [];
  url = "";

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        // The SDK gzips large bodies, as the API allows.
        const raw = Buffer.concat(chunks);
        const text = (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
        this.calls.push({ headers: req.headers, body: JSON.parse(text) });
        for (const wake of this.waiters.splice(0)) wake();
        if (this.mode === "hang") return;
        const status = this.mode === "ok" ? 200 : 500;
        const body = this.mode === "ok" ? "{}" : '{"__type":"InternalServiceError","message":"recorder told to fail"}';
        res
          .writeHead(status, { "content-type": "application/x-amz-json-1.0", "x-amzn-requestid": "recorded" })
          .end(body);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves once `count` calls have arrived in total. */
  async received(count: number, timeoutMs = 5_000): Promise<RecordedCall[]> {
    const until = Date.now() + timeoutMs;
    while (this.calls.length < count) {
      if (Date.now() > until) throw new Error(`expected ${count} PutMetricData calls, got ${this.calls.length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.calls;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
