import { randomUUID } from "node:crypto";
import { posix } from "node:path";
import type { SentReview } from "../../kube/apiserver";
import { goJson, goStruct } from "./go-json";

/** The ConversionReview the apiserver sends, and its body byte for byte. */
export interface ReviewRequest {
  review: SentReview & { kind: "ConversionReview" };
  body: string;
}

/**
 * The request the apiserver builds for `objects` (apiextensions-apiserver `webhook_converter.go`):
 * a fresh UUID, the envelope in struct order, the objects with sorted keys, the pre-filled empty
 * `response` stanza, one trailing newline.
 */
export function reviewRequest(
  desiredAPIVersion: string,
  objects: unknown[],
  reviewVersion: "v1" | "v1beta1" = "v1",
): ReviewRequest {
  const apiVersion = `apiextensions.k8s.io/${reviewVersion}`;
  const uid = randomUUID();
  const body = goStruct([
    ["kind", goJson("ConversionReview")],
    ["apiVersion", goJson(apiVersion)],
    [
      "request",
      goStruct([
        ["uid", goJson(uid)],
        ["desiredAPIVersion", goJson(desiredAPIVersion)],
        ["objects", goJson(objects)],
      ]),
    ],
    [
      "response",
      goStruct([
        ["uid", '""'],
        ["convertedObjects", "null"],
        ["result", goStruct([["metadata", "{}"]])],
      ]),
    ],
  ]);
  return {
    review: { apiVersion, kind: "ConversionReview", request: { uid, desiredAPIVersion, objects } },
    body: `${body}\n`,
  };
}

/**
 * The URL the apiserver posts to: its path cleaned as Go's `path.Join("/", path)` does (no
 * trailing slash, no `//`, `/` when empty) and `?timeout=30s`, its client timeout, as the query.
 */
export function apiserverUrl(url: string): URL {
  const parsed = new URL(url);
  const cleaned = posix.normalize(`/${parsed.pathname}`);
  parsed.pathname = cleaned.length > 1 && cleaned.endsWith("/") ? cleaned.slice(0, -1) : cleaned;
  parsed.search = "?timeout=30s";
  parsed.hash = "";
  return parsed;
}

/** A URL fit for a log: the path token of `/convert/<token>` is not printed. */
export function redactUrl(url: string): string {
  return url.replace(/(\/convert\/)[^/?#]+/, "$1<token>");
}
