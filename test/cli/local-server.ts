import { readFileSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import * as http from "node:http";
import * as https from "node:https";
import { createAdaptorServer } from "@hono/node-server";

const fixtures = new URL("../fixtures/tls/", import.meta.url);
/** The self-signed test certificate for 127.0.0.1 (test/fixtures/tls/README.md). */
export const TEST_CERT = readFileSync(new URL("localhost.crt", fixtures), "utf8");
const TEST_KEY = readFileSync(new URL("localhost.key", fixtures), "utf8");

export interface LocalServer {
  /** `http(s)://127.0.0.1:PORT` */
  origin: string;
  close(): Promise<void>;
}

/** A fetch handler (the Hono app) served on 127.0.0.1, over https with the test certificate if asked. */
export function serveApp(
  fetch: (request: Request) => Response | Promise<Response>,
  options: { tls?: boolean } = {},
): Promise<LocalServer> {
  const server = options.tls
    ? createAdaptorServer({
        fetch,
        createServer: https.createServer,
        serverOptions: { key: TEST_KEY, cert: TEST_CERT },
      })
    : createAdaptorServer({ fetch });
  return listen(server as Server, options.tls ? "https" : "http");
}

/** A plain node:http handler on 127.0.0.1, for servers that misbehave on purpose. */
export function serveRaw(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<LocalServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handler(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  return listen(server, "http");
}

async function listen(server: Server, scheme: string): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `${scheme}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was just released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
