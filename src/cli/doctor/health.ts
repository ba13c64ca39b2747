import * as http from "node:http";
import * as https from "node:https";
import type { Connection } from "../webhook-call";
import { type Finding, info } from "./finding";

/** What a crdshift webhook's `/healthz` says about itself; undefined when it says nothing readable. */
export interface Health {
  /** Set when the webhook shadows a candidate registry (src/shadow/): the share of reviews it takes. */
  shadow?: { sample: number };
}

/** The whole read, from connecting to the last byte: a server that drips bytes is not waited on. */
export const HEALTH_DEADLINE_MS = 5_000;
const MAX_HEALTH_BYTES = 64 * 1024;

/**
 * The `/healthz` beside a webhook's `/convert` (same origin, same prefix), read with the trust the
 * probe uses, within `deadlineMs` and MAX_HEALTH_BYTES. Any failure is undefined: health is a
 * fact to show, not a check that can fail.
 */
export function readHealth(
  convertUrl: string,
  connection: Connection,
  deadlineMs = HEALTH_DEADLINE_MS,
): Promise<Health | undefined> {
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
    const settle = (health: Health | undefined) => {
      clearTimeout(deadline);
      req.destroy();
      resolve(health);
    };
    const req = (secure ? https : http).get(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_HEALTH_BYTES) settle(undefined);
        else chunks.push(chunk);
      });
      res.on("end", () =>
        settle(res.statusCode === 200 ? parseHealth(Buffer.concat(chunks).toString("utf8")) : undefined),
      );
      res.on("error", () => settle(undefined));
    });
    // A deadline, not an idle timeout: a byte every second would keep an idle one waiting forever.
    const deadline = setTimeout(() => settle(undefined), deadlineMs);
    req.on("error", () => settle(undefined));
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
