import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { registry } from "../../../examples";
import { type AppOptions, createWebhook } from "../../../src/server/app";
import { readConfig } from "../../../src/server/config";
import type { LogRecord } from "../../../src/log";
import type { Metrics } from "../../../src/metrics/metrics";
import { nodeCallerAddress, nodeRequestListener, utf8Text } from "../../../src/platforms/node/node-review-route";
import { hostile } from "../../fixtures/hostile-registries";
import { registry as dropsPort } from "../../fixtures/port-dropping-registry";

// The Node server takes the apiserver's reviews on a route of its own (platforms/node/node-review-route.ts)
// and hands everything else to the Hono app. Both must answer every request alike, and report it
// alike: the same corpus goes to the app's fetch and, as raw HTTP, to the Node server.

const TOKEN = "differential-token-0123456789";
const NEXT = "differential-next-9876543210";
const docsV1 = readFileSync(new URL("../../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const failing = docsV1.replace('"desiredAPIVersion": "example.com/v1"', '"desiredAPIVersion": "example.com/v9"');
const deep = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"d","desiredAPIVersion":"example.com/v1","objects":[${"[".repeat(20)}${"]".repeat(20)}]}}`;

interface Sent {
  name: string;
  method?: string;
  path: string;
  /** Header lines besides Host and the body's framing; a name may repeat. */
  headers?: Array<[string, string]>;
  body?: string;
  /** Sent chunked, without a Content-Length. */
  chunked?: boolean;
}

interface Answer {
  status: number;
  body: string;
  contentType: string | null;
  allow: string | null;
}

const json: Array<[string, string]> = [["Content-Type", "application/json"]];
const at = `/convert/${TOKEN}?timeout=30s`;

/** Every way a request can go, with CRDSHIFT_TOKEN, CRDSHIFT_TOKEN_NEXT, a 4 KiB body limit and depth 8. */
const corpus: Sent[] = [
  { name: "a review", path: at, headers: json, body: docsV1 },
  { name: "a review at the next token", path: `/convert/${NEXT}`, headers: json, body: docsV1 },
  { name: "a review that fails", path: at, headers: json, body: failing },
  {
    name: "a review with a charset",
    path: at,
    headers: [["Content-Type", "application/json; charset=utf-8"]],
    body: docsV1,
  },
  { name: "a review after a byte order mark", path: at, headers: json, body: `\uFEFF${docsV1}` },
  { name: "a review with another query", path: `${at}&x=%20y`, headers: json, body: docsV1 },
  { name: "a review, chunked", path: at, headers: json, body: docsV1, chunked: true },
  { name: "a review, token percent-encoded", path: `/convert/%64${TOKEN.slice(1)}`, headers: json, body: docsV1 },
  { name: "a review to a Host with capitals", path: at, headers: [...json, ["X-Host", "Crdshift.TEST"]], body: docsV1 },
  { name: "a wrong token", path: "/convert/wrong-token-0123456789abc", headers: json, body: docsV1 },
  { name: "a prefix of the token", path: `/convert/${TOKEN.slice(0, -1)}`, headers: json, body: docsV1 },
  { name: "no token", path: "/convert", headers: json, body: docsV1 },
  { name: "a path past the token", path: `/convert/${TOKEN}/more`, headers: json, body: docsV1 },
  { name: "a path in capitals", path: `/CONVERT/${TOKEN}`, headers: json, body: docsV1 },
  { name: "GET", method: "GET", path: at },
  { name: "PUT", method: "PUT", path: at, headers: json, body: docsV1 },
  { name: "HEAD", method: "HEAD", path: at },
  { name: "text/plain", path: at, headers: [["Content-Type", "text/plain"]], body: docsV1 },
  { name: "no content type", path: at, body: docsV1 },
  { name: "two content types", path: at, headers: [...json, ...json], body: docsV1 },
  { name: "a body over the limit", path: at, headers: json, body: `${docsV1}${" ".repeat(5000)}` },
  { name: "a chunked body over the limit", path: at, headers: json, body: " ".repeat(5000), chunked: true },
  { name: "invalid JSON", path: at, headers: json, body: '{"apiVersion":' },
  { name: "an empty body", path: at, headers: json, body: "" },
  { name: "too deep", path: at, headers: json, body: deep },
  { name: "JSON that is no review", path: at, headers: json, body: '{"kind":"Pod"}' },
  { name: "healthz", method: "GET", path: "/healthz" },
  { name: "an unknown path", method: "GET", path: "/metrics" },
];

const ENV = {
  CRDSHIFT_TOKEN: TOKEN,
  CRDSHIFT_TOKEN_NEXT: NEXT,
  CRDSHIFT_BODY_LIMIT_BYTES: "4096",
  CRDSHIFT_MAX_DEPTH: "8",
  CRDSHIFT_ALLOWED_SOURCES: "127.0.0.0/8, ::1",
  CRDSHIFT_LOG_REVIEWS: "all",
};

/** One side's webhook, with what it reports recorded (durations and error details set aside). */
function recorded(env: Record<string, string>, options: Partial<AppOptions>) {
  const reports: Array<[string, unknown]> = [];
  const metrics: Metrics = {
    review: ({ durationMs: _, ...outcome }) => reports.push(["review", outcome]),
    rejected: (reason) => reports.push(["rejected", reason]),
    shadow: (outcome) => reports.push(["shadow", outcome]),
    pending: () => undefined,
  };
  const log = ({ durationMs: _, detail: __, ...record }: LogRecord) => reports.push(["log", record]);
  const webhook = createWebhook({ registry, config: readConfig(env), log, metrics, ...options });
  return { webhook, reports };
}

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** Both sides: the Hono app (its fetch, the caller on loopback) and the Node server (over TCP). */
async function sides(env: Record<string, string>, options: Partial<AppOptions> = {}) {
  const app = recorded(env, { callerAddress: () => "127.0.0.1", ...options });
  const node = recorded(env, { callerAddress: nodeCallerAddress, ...options });
  const server = createServer(nodeRequestListener(node.webhook, "127.0.0.1"));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { app, node, port };
}

function viaApp(fetch: (request: Request) => Response | Promise<Response>, sent: Sent): Promise<Answer> {
  const method = sent.method ?? "POST";
  const headers = new Headers(sent.headers?.filter(([name]) => name !== "X-Host"));
  let body: BodyInit | undefined;
  if (sent.body !== undefined && method !== "GET" && method !== "HEAD") {
    const bytes = new TextEncoder().encode(sent.body);
    if (sent.chunked) {
      body = new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.slice(i, i + 1000));
          controller.close();
        },
      });
    } else {
      headers.set("Content-Length", String(bytes.length));
      body = bytes;
    }
  }
  const request = new Request(`http://crdshift.test${sent.path}`, {
    method,
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  return Promise.resolve(fetch(request)).then(async (res) => ({
    status: res.status,
    body: await res.text(),
    contentType: res.headers.get("content-type"),
    allow: res.headers.get("allow"),
  }));
}

/** The request as bytes on the wire: Host, the headers, the body with its length or chunked. */
function wire(sent: Sent): Buffer {
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
function raw(port: number, bytes: Buffer, then: "read" | "end" | "destroy" = "read"): Promise<Buffer> {
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

async function viaNode(port: number, sent: Sent): Promise<Answer> {
  const reply = await raw(port, wire(sent));
  const end = reply.indexOf("\r\n\r\n");
  const [statusLine, ...fields] = reply.subarray(0, end).toString("latin1").split("\r\n");
  const headers = new Map(
    fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]),
  );
  const length = Number(headers.get("content-length") ?? 0);
  expect(headers.has("transfer-encoding")).toBe(false);
  return {
    status: Number(statusLine!.split(" ")[1]),
    body: reply.subarray(end + 4, end + 4 + length).toString("utf8"),
    contentType: headers.get("content-type") ?? null,
    allow: headers.get("allow") ?? null,
  };
}

/** Waits for an event (the reports of a request whose reply never came), not for a time. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 10_000; waited += 20) await sleep(20);
}

describe("the Node server's own review route against the Hono app", () => {
  it("answers and reports every request of the corpus as the app does", async () => {
    const { app, node, port } = await sides(ENV);
    for (const sent of corpus) {
      const ours = await viaNode(port, sent);
      const theirs = await viaApp(app.webhook.app.fetch, sent);
      expect({ name: sent.name, ...ours }).toEqual({ name: sent.name, ...theirs });
    }
    expect(node.reports).toEqual(app.reports);
    // The corpus covers every answer: reviews, failures and each refusal.
    const statuses = new Set(app.reports.filter(([kind]) => kind === "rejected").map(([, reason]) => reason));
    expect([...statuses].sort()).toEqual(
      [
        "invalid-json",
        "invalid-review",
        "method-not-allowed",
        "not-found",
        "too-deep",
        "too-large",
        "unsupported-media-type",
      ].sort(),
    );
  });

  it("answers every request of the corpus as without a shadow candidate, a hostile one included", async () => {
    const plain = await sides(ENV);
    for (const candidate of [dropsPort, hostile.throws(), hostile.scribbles()]) {
      const { app, node, port } = await sides({ ...ENV, CRDSHIFT_SHADOW_SAMPLE: "1" }, { shadow: candidate });
      // /healthz says shadow is on: that answer differs by design.
      for (const sent of corpus.filter(({ path }) => path !== "/healthz")) {
        const expected = { name: sent.name, ...(await viaApp(plain.app.webhook.app.fetch, sent)) };
        expect({ name: sent.name, ...(await viaNode(port, sent)) }).toEqual(expected);
        expect({ name: sent.name, ...(await viaApp(app.webhook.app.fetch, sent)) }).toEqual(expected);
      }
      // The candidate did run, behind both routes. Shadow work yields to load by design (one at a
      // time, idle after each, dropped if it cannot start soon), so a loaded machine may skip all of
      // the corpus: a review is sent again until one ran, bounded by `until`.
      const ran = (reports: Array<[string, unknown]>) => reports.some(([kind]) => kind === "shadow");
      await until(() => ran(node.reports) || (void viaNode(port, corpus[0]!).catch(() => undefined), false));
      await until(
        () => ran(app.reports) || (void viaApp(app.webhook.app.fetch, corpus[0]!).catch(() => undefined), false),
      );
      for (const side of [node, app]) expect(ran(side.reports)).toBe(true);
    }
  });

  it("answers and reports random requests as the app does", async () => {
    const { app, node, port } = await sides(ENV);
    const request = fc.record({
      method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "DELETE", "HEAD"),
      path: fc.constantFrom(at, `/convert/${NEXT}`, "/convert", `/convert/${TOKEN.slice(1)}`, `${at}&a=b`, "/convert/"),
      contentType: fc.constantFrom<Array<[string, string]>>(
        json,
        [],
        [["Content-Type", "text/plain"]],
        [["Content-Type", "application/merge-patch+json"]],
        [["content-type", "APPLICATION/JSON ; charset=utf-8"]],
        [...json, ["Content-Type", "text/plain"]],
      ),
      body: fc.oneof(
        fc.constantFrom(docsV1, failing, deep, '{"apiVersion":', "", `${docsV1}${" ".repeat(5000)}`),
        fc.string({ maxLength: 40 }),
      ),
      chunked: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, contentType, body, chunked }) => {
        const bodyless = method === "GET" || method === "HEAD";
        const sent: Sent = { name: `${method} ${path}`, method, path, headers: contentType };
        if (!bodyless) Object.assign(sent, { body, chunked });
        expect(await viaNode(port, sent)).toEqual(await viaApp(app.webhook.app.fetch, sent));
      }),
      { numRuns: 60 },
    );
    expect(node.reports).toEqual(app.reports);
  });

  it("refuses a caller outside CRDSHIFT_ALLOWED_SOURCES as the app does", async () => {
    const { app, node, port } = await sides({ CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8" });
    const sent: Sent = { name: "a review", path: "/convert", headers: json, body: docsV1 };
    const ours = await viaNode(port, sent);
    expect(ours).toEqual(await viaApp(app.webhook.app.fetch, sent));
    expect(ours.status).toBe(404);
    expect(node.reports).toEqual([["rejected", "source-not-allowed"]]);
    expect(node.reports).toEqual(app.reports);
  });

  it("answers at /convert without a token as the app does", async () => {
    const { app, node, port } = await sides({ CRDSHIFT_LOG_REVIEWS: "all" });
    for (const path of ["/convert?timeout=30s", `/convert/${TOKEN}`]) {
      const sent: Sent = { name: path, path, headers: json, body: docsV1 };
      expect(await viaNode(port, sent)).toEqual(await viaApp(app.webhook.app.fetch, sent));
    }
    expect(node.reports).toEqual(app.reports);
  });

  it("counts an instance's first review as its cold start, as the app does, after requests it refused", async () => {
    const { app, node, port } = await sides(ENV);
    const refused: Sent = {
      name: "a wrong token",
      path: "/convert/wrong-token-0123456789abc",
      headers: json,
      body: docsV1,
    };
    const first: Sent = { name: "a review", path: at, headers: json, body: docsV1 };
    for (const sent of [refused, first])
      expect(await viaNode(port, sent)).toEqual(await viaApp(app.webhook.app.fetch, sent));
    expect(node.reports).toEqual(app.reports);
    expect(node.reports).toContainEqual(["log", expect.objectContaining({ msg: "review converted", cold: true })]);
  });

  it("reports an upload that breaks off as the app does: body-unreadable, once", async () => {
    const { app, node, port } = await sides(ENV);
    const head = `POST ${at} HTTP/1.1\r\nHost: crdshift.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    for (const then of ["destroy", "end"] as const) await raw(port, Buffer.from(`${head}{"apiVersion":`), then);
    await until(() => node.reports.length >= 4);
    for (let i = 0; i < 2; i++) {
      const broken = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"apiVersion":'));
          controller.error(new Error("connection reset"));
        },
      });
      await app.webhook.app.fetch(
        new Request(`http://crdshift.test${at}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Content-Length": "1000" },
          body: broken,
          duplex: "half",
        } as RequestInit),
      );
    }
    expect(node.reports).toEqual(app.reports);
    expect(node.reports.filter(([kind]) => kind === "rejected")).toEqual([
      ["rejected", "body-unreadable"],
      ["rejected", "body-unreadable"],
    ]);
  });
});

describe("the Node route when a part of the app throws", () => {
  it("answers 500 and keeps serving where the report throws on a broken upload or the clock on a request's arrival", async () => {
    for (const breaks of ["report", "clock"] as const) {
      const logged: LogRecord[] = [];
      const metrics: Metrics = {
        review: () => {},
        rejected: (reason) => {
          if (breaks === "report" && reason === "body-unreadable") throw new Error("metrics sink broke");
        },
        shadow: () => {},
        pending: () => undefined,
      };
      // The review route reads the clock first when a request arrives: that read throws, once.
      let clockBreaks = false;
      const now = () => {
        if (clockBreaks) {
          clockBreaks = false;
          throw new Error("clock broke");
        }
        return Date.now();
      };
      const webhook = createWebhook({ registry, config: readConfig({}), log: (r) => logged.push(r), metrics, now });
      const server = createServer(nodeRequestListener(webhook, "127.0.0.1"));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as { port: number };
      const sent: Sent = { name: "a review", path: "/convert", headers: json, body: docsV1 };
      const head =
        "POST /convert HTTP/1.1\r\nHost: crdshift.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
      if (breaks === "report") await raw(port, Buffer.from(`${head}{"apiVersion":`), "destroy");
      clockBreaks = breaks === "clock";
      const answered = await viaNode(port, sent);
      if (breaks === "clock") expect(answered).toMatchObject({ status: 500, body: '{"error":"internal error"}' });
      await until(() => logged.some((record) => record.msg === "internal error"));
      expect(logged.filter((record) => record.msg === "internal error")).toHaveLength(1);
      expect((await viaNode(port, sent)).status).toBe(200);
    }
  });
});

describe("the Node route's body text", () => {
  it("is the Fetch API's text() of the same bytes: invalid UTF-8 replaced alike, a byte order mark dropped", () => {
    const decoder = new TextDecoder();
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.string({ unit: "binary" }).map((text) => new TextEncoder().encode(text)),
      fc.uint8Array({ maxLength: 16 }).map((tail) => Uint8Array.from([0xef, 0xbb, 0xbf, ...tail])),
    );
    fc.assert(
      fc.property(bytes, (array) => {
        expect(utf8Text(Buffer.from(array))).toBe(decoder.decode(array));
      }),
      { numRuns: 2000 },
    );
  });
});
