import { clip, REASON_LIMIT } from "../../json";
import { createApp, readConfig } from "../../server";
import { silentLogger } from "../../log";
import type { Registry } from "../../conversion";
import { type ApiserverVerdict, checkReply } from "../../kube/apiserver";
import { type CallFailure, type Connection, createPoster, type TlsPeer } from "./post-review";
import type { ReviewRequest } from "./review-request";

/** One call's outcome as the apiserver would take it, with what the call itself showed. */
export interface SideResult {
  verdict: ApiserverVerdict;
  elapsedMs: number;
  /** Set when the call itself failed: no reply was checked, `verdict` says the error. */
  callFailure?: CallFailure;
  status?: number;
  location?: string;
  tls?: TlsPeer;
}

/** Something that answers ConversionReviews: a deployed webhook, or a registry run in-process. */
export interface ConversionSide {
  /** For reports: the URL (token hidden) or the module. */
  name: string;
  convert(request: ReviewRequest): Promise<SideResult>;
  close(): void;
}

/** A webhook at a URL, called as the apiserver calls it, its replies held to the apiserver's checks. */
export function urlSide(name: string, url: string, connection: Connection = {}): ConversionSide {
  const poster = createPoster(url, connection);
  return {
    name,
    async convert(request) {
      const result = await poster.post(request);
      if (!result.ok)
        return {
          verdict: { ok: false, error: `${prefix(request)} failed: ${result.error}` },
          elapsedMs: result.elapsedMs,
          callFailure: result.failure,
        };
      const verdict = checkReply(request.review, result.status, result.body, result.contentType);
      return {
        // Kept per object and version by diff, and printed: a webhook's 40 MB Failure message is not.
        verdict: verdict.ok ? verdict : { ok: false, error: clip(verdict.error, REASON_LIMIT) },
        elapsedMs: result.elapsedMs,
        status: result.status,
        ...(result.location ? { location: result.location } : {}),
        ...(result.tls ? { tls: result.tls } : {}),
      };
    },
    close: poster.close,
  };
}

/**
 * A registry served by crdshift's own app, in-process, with the default configuration: the
 * replies a deployment of it would give, byte for byte, without a network.
 */
export function registrySide(name: string, registry: Registry): ConversionSide {
  const app = createApp({ registry, config: readConfig({}), log: silentLogger });
  return {
    name,
    async convert(request) {
      const started = performance.now();
      const res = await app.request("http://crdshift.local/convert?timeout=30s", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, */*",
          "User-Agent": "kube-apiserver-admission",
        },
        body: request.body,
      });
      const body = await res.text();
      return {
        verdict: checkReply(request.review, res.status, body, res.headers.get("content-type") ?? ""),
        elapsedMs: performance.now() - started,
        status: res.status,
      };
    },
    close: () => {},
  };
}

/** `conversion webhook for <group/version>, Kind=<kind>`: how the apiserver names a call. */
function prefix(request: ReviewRequest): string {
  const first = request.review.request.objects[0] as { apiVersion?: unknown; kind?: unknown } | undefined;
  return `conversion webhook for ${String(first?.apiVersion ?? "")}, Kind=${String(first?.kind ?? "")}`;
}
