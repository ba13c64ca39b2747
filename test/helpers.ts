import { expect } from "vitest";
import { registry as exampleRegistry } from "../examples";
import { type AppOptions, createApp } from "../src/server/app";
import { readConfig } from "../src/server/config";
import type { LogRecord } from "../src/log";
import { decodeJson, encodeJson } from "../src/json";
import type { Registry } from "../src/conversion";
import { checkReply, type SentReview } from "../src/kube/apiserver/apiserver-checks";

export const UID = "705ab4f5-6393-11e8-b7cc-42010a800002";

export function review(
  desiredAPIVersion: string,
  objects: unknown[],
  apiVersion = "apiextensions.k8s.io/v1",
): SentReview & { kind: "ConversionReview" } {
  return { apiVersion, kind: "ConversionReview", request: { uid: UID, desiredAPIVersion, objects } };
}

export function testApp(
  options: {
    env?: Record<string, string>;
    registry?: Registry;
    now?: () => number;
    callerAddress?: AppOptions["callerAddress"];
  } = {},
) {
  const logs: LogRecord[] = [];
  const config = readConfig(options.env ?? {});
  const app = createApp({
    registry: options.registry ?? exampleRegistry,
    config,
    log: (record) => logs.push(record),
    ...(options.now ? { now: options.now } : {}),
    ...(options.callerAddress ? { callerAddress: options.callerAddress } : {}),
  });
  return { app, logs, config };
}

type App = ReturnType<typeof testApp>["app"];

export async function post(
  app: App,
  body: string,
  init: { path?: string; contentType?: string | null; method?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (init.contentType !== null) headers["Content-Type"] = init.contentType ?? "application/json";
  // What the apiserver sends: the ?timeout query, a buffered body with a length.
  return app.request(`http://crdshift.test${init.path ?? "/convert?timeout=30s"}`, {
    method: init.method ?? "POST",
    headers,
    body: body,
  });
}

/** The apiserver's body: Go's compact JSON with one trailing newline. */
export function wire(value: unknown): string {
  return `${encodeJson(value)}\n`;
}

/** The value as JSON says it: integers beyond 2^53 as bigint, whatever they were before. */
export function asJson(value: unknown): unknown {
  return decodeJson(encodeJson(value)).value;
}

/** Posts a review and asserts the apiserver would accept the reply; returns both. */
export async function convertOk(app: App, sent: SentReview, path?: string) {
  const res = await post(app, wire(sent), path ? { path } : {});
  const text = await res.text();
  const verdict = checkReply(sent, res.status, text, res.headers.get("content-type") ?? "");
  if (!verdict.ok) expect.fail(`apiserver would reject the reply: ${verdict.error}\n${text}`);
  return { reply: decodeJson(text).value as any, objects: verdict.ok ? verdict.objects : [], text };
}

/** Posts a review that must fail cleanly: HTTP 200, `Failure`, a message. Returns the message. */
export async function convertFails(app: App, sent: SentReview): Promise<string> {
  const res = await post(app, wire(sent));
  expect(res.status).toBe(200);
  const reply = await res.json();
  expect(reply).toMatchObject({
    apiVersion: sent.apiVersion,
    kind: "ConversionReview",
    response: { uid: sent.request.uid },
  });
  expect(reply.response.result.status).toBe("Failure");
  expect(reply.response.result.message).toEqual(expect.any(String));
  const verdict = checkReply(sent, res.status, JSON.stringify(reply));
  expect(verdict.ok).toBe(false);
  return reply.response.result.message;
}

export function cronTab(
  version: string,
  name: string,
  fields: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
) {
  return {
    apiVersion: `example.com/${version}`,
    kind: "CronTab",
    metadata: { name, namespace: "default", uid: `uid-${name}`, ...metadata },
    ...fields,
  };
}
