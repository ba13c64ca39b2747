import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../src/server/config";
import { heldAtLeast, heldBeforeRead } from "../../../src/conversion";
import { httpRequest, rawConnection } from "../../raw-http";
import { listen } from "./node-wire";

// The Node server over TCP (the Hono app on @hono/node-server) holds what its reviews hold under
// CRDSHIFT_MAX_BYTES_IN_FLIGHT and gives them back however a request ends; a refused request
// leaves its connection usable for the next one.

const docsV1 = readFileSync(new URL("../../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const JSON_TYPE = { "Content-Type": "application/json" };
const HEALTHZ = httpRequest("GET", "/healthz", "");
const review = (body = docsV1) => httpRequest("POST", "/convert?timeout=30s", body, JSON_TYPE);

describe("the Node server: a refused request leaves its connection usable", () => {
  const TOKEN = "node-token-0123456789abcdef";
  const AT_TOKEN = `/convert/${TOKEN}`;
  const refusals: Array<[string, string, number]> = [
    ["an unknown path", httpRequest("POST", "/nope", docsV1, JSON_TYPE), 404],
    ["a wrong token", httpRequest("POST", "/convert/wrong-token-0123456789abc", docsV1, JSON_TYPE), 404],
    ["a form body", httpRequest("POST", AT_TOKEN, docsV1, { "Content-Type": "text/plain" }), 415],
    ["a body over the limit", httpRequest("POST", AT_TOKEN, `${docsV1}${" ".repeat(5000)}`, JSON_TYPE), 413],
    ["a method other than POST", httpRequest("PUT", AT_TOKEN, docsV1, JSON_TYPE), 405],
  ];
  for (const [name, refused, status] of refusals) {
    it(`${name} (${status}), its body unread: the next request on the connection is answered`, async () => {
      const { port } = await listen({
        CRDSHIFT_TOKEN: "node-token-0123456789abcdef",
        CRDSHIFT_BODY_LIMIT_BYTES: "4096",
      });
      const connection = await rawConnection(port);
      connection.write(refused);
      connection.write(HEALTHZ);
      expect(await connection.responses(2)).toEqual([status, 200]);
      expect(connection.closed()).toBe(false);
      connection.socket.destroy();
    });
  }

  it("a 429: the review sent again on the same connection is converted", async () => {
    // A review waits in line half its budget at most: a short one makes the 429 come soon.
    const { port, webhook } = await listen({
      CRDSHIFT_BODY_LIMIT_BYTES: "4096",
      CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(heldAtLeast(4096)),
      CRDSHIFT_BUDGET_MS: "200",
    });
    const { inFlight } = webhook;
    const held = inFlight.tryReserve(inFlight.capBytes)!;
    const connection = await rawConnection(port);
    connection.write(review());
    expect(await connection.responses(1)).toEqual([429]);
    expect(connection.received()).toMatch(/\r\nRetry-After: 1\r\n/i);
    held.release();
    connection.write(review());
    expect(await connection.responses(2)).toEqual([429, 200]);
    expect(inFlight.heldBytes).toBe(0);
    connection.socket.destroy();
  });
});

describe("the Node server: bytes in flight", () => {
  const head = (length: number) =>
    `POST /convert HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it("holds what a review of its declared length may hold while its body arrives, and nothing once it is answered", async () => {
    const { port, webhook } = await listen();
    const connection = await rawConnection(port);
    connection.write(head(Buffer.byteLength(docsV1)));
    connection.write(docsV1.slice(0, 10));
    const held = heldBeforeRead(Buffer.byteLength(docsV1), readConfig({}));
    await vi.waitFor(() => expect(webhook.inFlight.heldBytes).toBe(held));
    connection.write(docsV1.slice(10));
    expect(await connection.responses(1)).toEqual([200]);
    expect(webhook.inFlight.heldBytes).toBe(0);
    connection.socket.destroy();
  });

  it("gives the bytes back when the client leaves mid-body", async () => {
    const { port, webhook } = await listen();
    const connection = await rawConnection(port);
    connection.write(head(1000));
    connection.write('{"apiVersion":');
    await vi.waitFor(() => expect(webhook.inFlight.heldBytes).toBe(heldBeforeRead(1000, readConfig({}))));
    connection.socket.destroy();
    await vi.waitFor(() => expect(webhook.inFlight.heldBytes).toBe(0));
  });

  it("lets a review wait its turn while /healthz answers, then converts it", async () => {
    const { port, webhook } = await listen();
    const held = webhook.inFlight.tryReserve(webhook.inFlight.capBytes)!;
    const waiting = await rawConnection(port);
    waiting.write(review());
    await vi.waitFor(() => expect(webhook.inFlight.waitingCount).toBe(1));
    const health = await rawConnection(port);
    health.write(HEALTHZ);
    expect(await health.responses(1)).toEqual([200]);
    held.release();
    expect(await waiting.responses(1)).toEqual([200]);
    expect(webhook.inFlight.heldBytes).toBe(0);
    for (const c of [waiting, health]) c.socket.destroy();
  });

  it("gives back the room it was let into when the client left while waiting, converting nothing", async () => {
    const { port, webhook, reports, server } = await listen({ CRDSHIFT_LOG_REVIEWS: "all" });
    const held = webhook.inFlight.tryReserve(webhook.inFlight.capBytes)!;
    const connection = await rawConnection(port);
    connection.write(review());
    await vi.waitFor(() => expect(webhook.inFlight.waitingCount).toBe(1));
    connection.socket.destroy();
    // The server sees the close before the room frees up.
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
      );
    await vi.waitFor(async () => expect(await connections()).toBe(0));
    held.release();
    // A review it converted would be logged before its room is given back (in the handler's finally).
    await vi.waitFor(() => expect(webhook.inFlight.heldBytes).toBe(0));
    expect(webhook.inFlight.waitingCount).toBe(0);
    // Its whole body had arrived before it left: it would convert, for nobody.
    expect(reports).toEqual([]);
  });
});
