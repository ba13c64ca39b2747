import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";
import { until } from "../until";

/** The built `npm start` server (build/node/index.mjs), as a process on 127.0.0.1. */
const SERVER = fileURLToPath(new URL("../../build/node/index.mjs", import.meta.url));
const TOKEN = "node-test-token-0123456789";
const NEXT = "node-next-token-9876543210";
const sent = JSON.parse(
  readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8"),
) as SentReview;
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGTERM");
});

/** What the server process wrote so far: its JSON log lines on stdout and on stderr. */
interface Output {
  stdout: string;
  stderr: string;
}

async function start(env: Record<string, string>, output: Output = { stdout: "", stderr: "" }): Promise<string> {
  if (!existsSync(SERVER)) throw new Error("build/node/index.mjs is missing: run `npm run build:node` (npm test does)");
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
  });
  running.push(child);
  child.stderr!.on("data", (chunk) => (output.stderr += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output.stdout += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.stdout);
      if (match) resolve(match[1]!);
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${output.stdout}${output.stderr}`)));
  });
}

/** The JSON lines of a stream of output (the start-up banner is not JSON). */
function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

/** Writes raw bytes on a fresh connection, then ends it (half-close) or drops it. */
function rawExchange(base: string, bytes: string, then: "end" | "destroy"): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    let received = "";
    const socket = connect(Number(port), hostname, () => {
      socket.write(bytes);
      if (then === "end") socket.end();
      else setImmediate(() => socket.destroy());
    });
    socket.on("data", (chunk) => (received += chunk));
    socket.on("error", () => {});
    socket.on("close", () => resolve(received));
  });
}

/** One HTTP/1.1 exchange on an open socket: the status line and headers of the reply, once its body is in. */
function exchange(socket: Socket, request: string): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return reject(new Error("the server had closed the connection"));
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk;
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine, ...fields] = received.slice(0, end).split("\r\n");
      const headers = Object.fromEntries(
        fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]),
      );
      if (received.length - end - 4 < Number(headers["content-length"] ?? 0)) return;
      socket.off("data", onData).off("close", onClose).off("error", reject);
      resolve({ status: Number(statusLine!.split(" ")[1]), headers });
    };
    const onClose = () => reject(new Error(`the server closed the connection; received ${JSON.stringify(received)}`));
    socket.on("data", onData).on("close", onClose).on("error", reject);
    socket.write(request);
  });
}

const post = (url: string) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(sent) }).then(
    async (res) => ({ status: res.status, text: await res.text() }),
  );

describe("the Node server (npm start), over real HTTP", () => {
  it("converts at the token's path and the next token's, and hides itself elsewhere", async () => {
    const base = await start({ CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_TOKEN_NEXT: NEXT });
    for (const token of [TOKEN, NEXT]) {
      const { status, text } = await post(`${base}/convert/${token}?timeout=30s`);
      expect(checkReply(sent, status, text)).toMatchObject({ ok: true });
    }
    expect((await post(`${base}/convert/not-the-token-0123456789`)).status).toBe(404);
    expect((await post(`${base}/convert`)).status).toBe(404);
  });

  it("answers callers from allowed networks only, by the socket's address", async () => {
    const open = await start({ CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8, 127.0.0.0/8" });
    expect((await post(`${open}/convert`)).status).toBe(200);
    // A header cannot make a caller someone else: only the socket counts on Node.
    const closed = await start({ CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8" });
    const res = await fetch(`${closed}/convert`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "10.1.2.3", "CF-Connecting-IP": "10.1.2.3" },
      body: JSON.stringify(sent),
    });
    expect(res.status).toBe(404);
  });
});

describe("the Node server's connections", () => {
  const review = JSON.stringify(sent);
  const request = (base: string) =>
    `POST /convert?timeout=30s HTTP/1.1\r\nHost: ${new URL(base).host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(review)}\r\n\r\n${review}`;

  it("keeps an idle connection longer than the apiserver's client does (90 s), and says so", async () => {
    const base = await start({});
    const socket = connect(Number(new URL(base).port), "127.0.0.1");
    try {
      const first = await exchange(socket, request(base));
      expect(first.status).toBe(200);
      // Go's transport reuses an idle connection for up to 90 s and does not retry a POST that
      // meets one the server has just closed (`Post …: EOF`).
      expect(first.headers["keep-alive"]).toBe("timeout=120");
      // Node's default closes after 5 s (and 1 s of grace): a second review after 7 s idle
      // must still find the connection open.
      await sleep(7_000);
      expect((await exchange(socket, request(base))).status).toBe(200);
    } finally {
      socket.destroy();
    }
  }, 30_000);

  it("answers an upload that breaks off, or malformed chunked encoding, as the caller's fault: 400 and a warning", async () => {
    const output: Output = { stdout: "", stderr: "" };
    const base = await start({}, output);
    const head = (framing: string) =>
      `POST /convert HTTP/1.1\r\nHost: ${new URL(base).host}\r\nContent-Type: application/json\r\n${framing}\r\n`;
    const cutShort = `${head("Content-Length: 1000\r\n")}{"apiVersion":`;
    const badChunk = `${head("Transfer-Encoding: chunked\r\n")}5\r\n{"api\r\nzz\r\nnot a chunk\r\n`;
    const replies = [
      await rawExchange(base, cutShort, "destroy"),
      await rawExchange(base, cutShort, "end"),
      await rawExchange(base, badChunk, "end"),
    ];
    for (const reply of replies.slice(1)) expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    const rejected = () => jsonLines(output.stdout).filter((line) => line.reason === "body-unreadable");
    await until(() => rejected().length === 3);
    expect(rejected()).toEqual(
      Array(3).fill(expect.objectContaining({ level: "warn", msg: "request rejected", status: 400 })),
    );
    // The server is fine, and said nothing at error level.
    expect((await post(`${base}/convert`)).status).toBe(200);
    expect(jsonLines(output.stderr)).toEqual([]);
  }, 20_000);

  it("reads a body that starts with a UTF-8 byte order mark as the other platforms do", async () => {
    const base = await start({});
    const res = await fetch(`${base}/convert`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: `\uFEFF${review}`,
    });
    expect(res.status).toBe(200);
    expect(checkReply(sent, res.status, await res.text())).toMatchObject({ ok: true });
  });
});
