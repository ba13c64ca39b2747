import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PrometheusMetrics } from "../../metrics/prometheus";
import { ConfigError } from "../../server";
import { listenAt } from "./listen-at";
import { applyNodeTimeouts } from "./node-timeouts";

/** Where `/metrics` listens: an address and port of its own, never the webhook's. */
export interface MetricsAddress {
  /** Undefined: every interface (`:9090`, as Go's servers read it). */
  hostname: string | undefined;
  port: number;
}

const VARIABLE = "CRDSHIFT_METRICS_BIND_ADDRESS";

/**
 * CRDSHIFT_METRICS_BIND_ADDRESS, as controller-runtime's `--metrics-bind-address`: `host:port`,
 * `[ipv6]:port`, or `:port` for every interface; unset, empty or `0`, no listener.
 */
export function readMetricsAddress(value: string | undefined): MetricsAddress | undefined {
  const text = value?.trim();
  if (text === undefined || text === "" || text === "0") return undefined;
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || port > 65_535) {
    throw new ConfigError(
      `${VARIABLE} must be host:port, [ipv6]:port or :port (every interface), e.g. 127.0.0.1:9090; got ${JSON.stringify(text)}`,
    );
  }
  const hostname = match[1] ?? (match[2] === "" ? undefined : match[2]);
  return { hostname, port };
}

/**
 * The scrape endpoint: `GET /metrics` answers the exposition text, anything else 404. A server
 * of its own, so whoever can reach the webhook (the apiserver, and what else the network lets
 * through) cannot read its counts, and a scrape needs no path token.
 */
export function createMetricsListener(prometheus: PrometheusMetrics): Server {
  return applyNodeTimeouts(
    createServer((request, response) => {
      const path = request.url?.split("?", 1)[0];
      if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
        response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
        return;
      }
      prometheus.scrape().then(
        ({ contentType, text }) =>
          response.writeHead(200, { "content-type": contentType }).end(request.method === "HEAD" ? undefined : text),
        () => response.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable\n"),
      );
    }),
  );
}

/** Listens at `address`; one it cannot bind is a configuration error naming the variable (listen-at.ts). */
export function listenForMetrics(
  listener: Server,
  address: MetricsAddress,
  setting: string | undefined,
  refused: (why: ConfigError) => void,
): Promise<AddressInfo> {
  return listenAt(listener, address.port, address.hostname, `${VARIABLE} ${JSON.stringify(setting?.trim())}`, refused);
}
