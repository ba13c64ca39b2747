import { type ChildProcess, spawn } from "node:child_process";

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of every command these tests run: no network but the npm registry, no
 * telemetry, no update checks, no AWS or Cloudflare credentials, and nothing of vitest's own.
 */
export function offlineEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    WRANGLER_SEND_METRICS: "false",
    CDK_DISABLE_VERSION_CHECK: "1",
    CDK_DISABLE_CLI_TELEMETRY: "true",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    ...extra,
  };
}

/** Runs a command to its end; throws with its output when it fails, unless `allowFailure`. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; allowFailure?: boolean },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? offlineEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0 && !options.allowFailure)
        reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${stdout}\n${stderr}`));
      else resolve({ code, stdout, stderr });
    });
  });
}

/** The URL a crdshift server prints once it listens on 127.0.0.1; rejects if it exits first. */
export function listeningOn(server: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    server.on("exit", (code) => reject(new Error(`${what} exited with ${code}: ${out}`)));
  });
}
