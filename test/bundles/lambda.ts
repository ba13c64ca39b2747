import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import type { FunctionUrlResult } from "../../src/adapter/function-url/handle";

export const LAMBDA_BUNDLE = fileURLToPath(new URL("../../build/lambda/index.mjs", import.meta.url));
const HOST = fileURLToPath(new URL("./lambda-host.mjs", import.meta.url));
/**
 * The node that runs the bundle: this machine's, or in the `lambda-runtime` project the Lambda
 * runtime's major (see lambda-runtime-node.ts).
 */
export const LAMBDA_NODE: string = inject("lambdaNode") ?? process.execPath;
export const URL_HOST = "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws";

/** A Lambda function URL event, payload format 2.0, as AWS documents it. */
export function functionUrlEvent(init: {
  path: string;
  body?: string;
  method?: string;
  query?: string;
  contentType?: string;
  base64?: boolean;
  sourceIp?: string;
}) {
  const query = init.query ?? "timeout=30s";
  const method = init.method ?? "POST";
  const body =
    init.body === undefined ? undefined : init.base64 ? Buffer.from(init.body).toString("base64") : init.body;
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: init.path,
    rawQueryString: query,
    headers: {
      "content-type": init.contentType ?? "application/json",
      ...(init.body === undefined ? {} : { "content-length": String(Buffer.byteLength(init.body)) }),
      accept: "application/json, */*",
      "accept-encoding": "gzip",
      "user-agent": "kube-apiserver-admission",
      host: URL_HOST,
      "x-amzn-trace-id": "Root=1-673f1b2c-0123456789abcdef01234567",
      "x-forwarded-for": init.sourceIp ?? "203.0.113.7",
      "x-forwarded-port": "443",
      "x-forwarded-proto": "https",
    },
    ...(query ? { queryStringParameters: Object.fromEntries(new URLSearchParams(query)) } : {}),
    requestContext: {
      accountId: "anonymous",
      apiId: URL_HOST.split(".")[0],
      domainName: URL_HOST,
      domainPrefix: URL_HOST.split(".")[0],
      http: {
        method,
        path: init.path,
        protocol: "HTTP/1.1",
        sourceIp: init.sourceIp ?? "203.0.113.7",
        userAgent: "kube-apiserver-admission",
      },
      requestId: "0f9c8b7a-1234-4cde-9abc-0123456789ab",
      routeKey: "$default",
      stage: "$default",
      time: "21/Nov/2026:12:00:00 +0000",
      timeEpoch: 1795262400000,
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: init.base64 ?? false,
  };
}

/** What the handler returns, as the adapter types it. */
export type LambdaResult = FunctionUrlResult;

/** One warm Lambda instance: a node process that imported the bundle once. */
export class LambdaHost {
  private child: ChildProcess;
  private waiting: Array<(line: string) => void> = [];
  /** What the function wrote through console (prefixed on Lambda). */
  stderr = "";
  /** What it wrote straight to stdout: EMF lines. */
  stdout = "";

  /** `bundle`: this repository's build/lambda/index.mjs unless another is named. */
  constructor(env: Record<string, string>, bundle = LAMBDA_BUNDLE) {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build:lambda\` (npm test does)`);
    this.child = spawn(LAMBDA_NODE, [HOST, bundle], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    });
    this.child.stderr!.on("data", (chunk) => (this.stderr += chunk));
    this.child.stdout!.on("data", (chunk) => (this.stdout += chunk));
    createInterface({ input: this.child.stdio[3] as Readable }).on("line", (line) => this.waiting.shift()?.(line));
  }

  invoke(event: unknown, remainingMs?: number): Promise<LambdaResult> {
    return new Promise((resolve) => {
      this.waiting.push((line) => resolve(JSON.parse(line)));
      (this.child.stdin as Writable).write(`${JSON.stringify({ event, remainingMs })}\n`);
    });
  }

  /** Closes stdin and resolves with what the process printed: its log lines. */
  stop(): Promise<{ stderr: string; stdout: string }> {
    return new Promise((resolve) => {
      this.child.on("close", () => resolve({ stderr: this.stderr, stdout: this.stdout }));
      this.child.stdin!.end();
    });
  }
}
