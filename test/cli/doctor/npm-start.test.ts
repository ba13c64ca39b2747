import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The built `npm start` server and the `crdshift` command, as a user runs them. */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const SERVER = `${root}build/node/index.mjs`;

let server: ChildProcess | undefined;
let base = "";
beforeAll(async () => {
  if (!existsSync(SERVER)) throw new Error("build/node/index.mjs is missing: run `npm run build:node` (npm test does)");
  server = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1" } });
  base = await new Promise<string>((resolve, reject) => {
    let out = "";
    server!.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    server!.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
});
afterAll(() => {
  server?.kill("SIGTERM");
});

function crdshift(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [`${root}bin/crdshift.mjs`, ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("crdshift doctor against npm start", () => {
  it("on the examples' CRD with --allow-http: only the http error", async () => {
    const { code, stdout, stderr } = await crdshift([
      "doctor",
      "-f",
      "examples/crds/crontabs.example.com.yaml",
      "--url",
      `${base}/convert`,
      "--allow-http",
    ]);
    expect(stderr).toBe("");
    const problems = stdout.split("\n").filter((line) => /^ {2}(ERROR|warning) /.test(line));
    expect(problems).toEqual([
      `  ERROR    http-url: ${base}/convert is plain http: the apiserver calls only https URLs; probed only because of --allow-http`,
    ]);
    expect(stdout).toContain("  info     probe-ok: 18 v1 ConversionReviews over 6 ordered pairs of served versions");
    expect(code).toBe(1);
  });
});
