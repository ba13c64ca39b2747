import * as http from "node:http";
import * as https from "node:https";
import type { Connection } from "../webhook-call";
import { type Finding, info } from "./finding";

/** What a crdshift webhook's `/healthz` says about itself; undefined when it says nothing readable. */
export interface Health {
  /** Set when the webhook shadows a candidate registry (src/shadow/): the share of reviews it takes. */
  shadow?: { sample: number };
}

const HEALTH_TIMEOUT_MS = 5_000;
const MAX_HEALTH_BYTES = 64 * 1024;

/**
 * The `/healthz` beside a webhook's `/convert` (same origin, same prefix), read with the trust the
 * probe uses. Any failure is undefined: health is a fact to show, not a check that can fail.
 */
export function readHealth(convertUrl: string, connection: Connection): Promise<Health | undefined> {
  const url = new URL(convertUrl);
  const at = url.pathname.lastIndexOf("/convert");
  if (at < 0) return Promise.resolve(undefined);
  url.pathname = `${url.pathname.slice(0, at)}/healthz`;
  url.search = "";
  const secure = url.protocol === "https:";
  return new Promise((resolve) => {
    const options = secure
      ? { rejectUnauthorized: !connection.acceptUntrusted, ...(connection.ca ? { ca: connection.ca } : {}) }
      : {};
    const req = (secure ? https : http).get(url, { ...options, timeout: HEALTH_TIMEOUT_MS }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
        if (body.length > MAX_HEALTH_BYTES) req.destroy();
      });
      res.on("end", () => resolve(res.statusCode === 200 ? parseHealth(body) : undefined));
      res.on("error", () => resolve(undefined));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
  });
}

function parseHealth(body: string): Health | undefined {
  try {
    const value = JSON.parse(body) as { status?: unknown; shadow?: { sample?: unknown } };
    if (value.status !== "ok") return undefined;
    const sample = value.shadow?.sample;
    return typeof sample === "number" ? { shadow: { sample } } : {};
  } catch {
    return undefined;
  }
}

/** Doctor's line about a webhook that shadows a candidate. */
export function healthFindings(health: Health | undefined): Finding[] {
  if (!health?.shadow) return [];
  const percent = Math.round(health.shadow.sample * 10_000) / 100;
  return [
    info(
      "shadow-on",
      `the webhook shadows a candidate registry on ${percent}% of reviews (CRDSHIFT_SHADOW_SAMPLE=${health.shadow.sample}): its differences are the ShadowDifferences and ShadowFailures metrics and "shadow" log lines`,
    ),
  ];
}
