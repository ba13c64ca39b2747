import type { Server } from "node:http";

/**
 * A Node server's connection timeouts, set for the kube-apiserver as a client. Its Go transport
 * keeps idle connections for 90 s and does not retry a POST that meets a connection the server
 * has just closed (`Post …: EOF`): Node's default of 5 s idle makes exactly that race.
 */
export const NODE_TIMEOUTS = {
  /** Idle time before a kept-alive connection is closed: outlives the client's 90 s. */
  keepAliveTimeoutMs: 120_000,
  /**
   * Time to receive a request's headers, counted from its first byte (idle time between
   * requests is the keep-alive's, not this). The apiserver sends them at once.
   */
  headersTimeoutMs: 60_000,
  /**
   * Time to receive a whole request, headers and body; at least the headers' time, as Node
   * requires. The apiserver gives up on a call after 30 s.
   */
  requestTimeoutMs: 60_000,
} as const;

export function applyNodeTimeouts(server: Server): Server {
  server.keepAliveTimeout = NODE_TIMEOUTS.keepAliveTimeoutMs;
  server.headersTimeout = NODE_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = NODE_TIMEOUTS.requestTimeoutMs;
  return server;
}
