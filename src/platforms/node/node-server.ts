import { createServer, type IncomingMessage, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Context, Hono } from "hono";
import { applyNodeTimeouts } from "./node-timeouts";

/**
 * The Node HTTP server of an app: every request goes to the Hono app through @hono/node-server,
 * as on every platform, with connection timeouts for the kube-apiserver as a client.
 * `hostname` stands in for a request without a Host header.
 */
export function createNodeServer(app: Hono, hostname: string): Server {
  return applyNodeTimeouts(createServer(getRequestListener(app.fetch, { hostname })));
}

/** The caller's address in the Hono app on Node: the socket's peer, which no header can forge. */
export function nodeCallerAddress(c: Context): string | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
}
