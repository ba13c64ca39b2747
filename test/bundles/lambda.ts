import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import type { FunctionUrlResult } from "../../src/platforms/lambda/function-url-handle";

export { functionUrlEvent, URL_HOST } from "./function-url-event";

export const LAMBDA_BUNDLE = fileURLToPath(new URL("../../build/lambda/index.mjs", import.meta.url));
const HOST = fileURLToPath(new URL("./lambda-host.mjs", import.meta.url));
/**
 * The node that runs the bundle: this machine's, or in the `lambda-runtime` project the Lambda
 * runtime's major (see lambda-runtime-node.ts).
 */
export const LAMBDA_NODE: string = inject("lambdaNode") ?? process.execPath;

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
