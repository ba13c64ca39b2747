import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { applyNodeTimeouts, NODE_TIMEOUTS } from "../../../src/platforms/node/node-timeouts";

/** The Go client's idle connection timeout (client-go's transport) and its call timeout. */
const APISERVER_IDLE_MS = 90_000;
const APISERVER_CALL_MS = 30_000;

describe("the Node server's timeouts", () => {
  it("keep idle connections longer than the apiserver's client, and wait for a request longer than it does", () => {
    const server = applyNodeTimeouts(createServer());
    expect(server.keepAliveTimeout).toBe(NODE_TIMEOUTS.keepAliveTimeoutMs);
    expect(server.keepAliveTimeout).toBeGreaterThan(APISERVER_IDLE_MS);
    expect(server.headersTimeout).toBeGreaterThan(APISERVER_CALL_MS);
    // Node refuses headersTimeout > requestTimeout when both are given to createServer.
    expect(server.requestTimeout).toBeGreaterThanOrEqual(server.headersTimeout);
    expect(() =>
      createServer({ headersTimeout: NODE_TIMEOUTS.headersTimeoutMs, requestTimeout: NODE_TIMEOUTS.requestTimeoutMs }),
    ).not.toThrow();
  });
});
