import type { Server } from "node:http";
import { connect } from "node:net";
import { afterAll } from "vitest";
import { registry } from "../../../examples";
import { type AppOptions, createWebhook, type Webhook } from "../../../src/server/app";
import { readConfig } from "../../../src/server/config";
import type { LogRecord } from "../../../src/log";
import type { Metrics } from "../../../src/metrics/metrics";
import { createNodeServer, nodeCallerAddress } from "../../../src/platforms/node/node-server";

/** A request as a client writes it on the wire. */
export interface Sent {
  name: string;
  method?: string;
  path: string;
  /** Header lines besides Host and the body's framing; a name may repeat. `X-Host` replaces the Host. */
  headers?: Array<[string, string]>;
  body?: string;
  /** Sent chunked, without a Content-Length. */
  chunked?: boolean;
}

/** A reply as it came off the wire. */
export interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** What the server reported: metrics (durations set aside) and log records, in order. */
export type Reports = Array<[string, unknown]>;

const servers: Server[] = [];
// Each test file that listens closes its servers at its end.
afterAll(() => Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))));

/** A Node server of the examples' registry on 127.0.0.1, its metrics and log recorded, closed after the file. */
export async function listen(
  env: Record<string, string> = {},
  options: Partial<AppOptions> = {},
): Promise<{ port: number; reports: Reports; server: Server; webhook: Webhook }> {
  const reports: Reports = [];
  const metrics: Metrics = {
    review: ({ durationMs: _, ...outcome }) => reports.push(["review", outcome]),
    rejected: (reason) => reports.push(["rejected", reason]),
    shadow: (outcome) => reports.push(["shadow", outcome]),
    pending: () => undefined,
  };
  const log = (record: LogRecord) => reports.push(["log", record]);
  const webhook = createWebhook({
    registry,
    config: readConfig(env),
    log,
    metrics,
    callerAddress: nodeCallerAddress,
    ...options,
  });
  const server = createNodeServer(webhook.app, "127.0.0.1");
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, reports, server, webhook };
}

/** The request as bytes on the wire: Host, the headers, the body with its length or chunked. */
export function wire(sent: Sent): Buffer {
  const method = sent.method ?? "POST";
  const host = sent.headers?.find(([name]) => name === "X-Host")?.[1] ?? "crdshift.test";
  const lines = [`${method} ${sent.path} HTTP/1.1`, `Host: ${host}`, "Connection: close"];
  for (const [name, value] of sent.headers ?? []) if (name !== "X-Host") lines.push(`${name}: ${value}`);
  const body = Buffer.from(sent.body ?? "");
  if (sent.body === undefined) return Buffer.from(`${lines.join("\r\n")}\r\n\r\n`);
  if (!sent.chunked)
    return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\nContent-Length: ${body.length}\r\n\r\n`), body]);
  const chunks: Buffer[] = [Buffer.from(`${lines.join("\r\n")}\r\nTransfer-Encoding: chunked\r\n\r\n`)];
  for (let i = 0; i < body.length; i += 1000) {
    const chunk = body.subarray(i, i + 1000);
    chunks.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(chunks);
}

/** Sends raw bytes on a fresh connection and reads the reply until the server closes it. */
export function raw(port: number, bytes: Buffer, then: "read" | "end" | "destroy" = "read"): Promise<Buffer> {
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(bytes);
      if (then === "end") socket.end();
      if (then === "destroy") setImmediate(() => socket.destroy());
    });
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => resolve(Buffer.concat(received)));
  });
}

/** The reply to `sent` over TCP: status, headers (lower-case names), the body its Content-Length frames. */
export async function send(port: number, sent: Sent): Promise<Answer> {
  const reply = await raw(port, wire(sent));
  const end = reply.indexOf("\r\n\r\n");
  const [statusLine, ...fields] = reply.subarray(0, end).toString("latin1").split("\r\n");
  const headers = new Map(
    fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]),
  );
  const length = Number(headers.get("content-length") ?? 0);
  return {
    status: Number(statusLine!.split(" ")[1]),
    headers,
    body: reply.subarray(end + 4, end + 4 + length).toString("utf8"),
  };
}
