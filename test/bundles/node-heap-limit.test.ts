import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { listeningOn } from "../e2e/run";

/** The built `npm start` server (build/node/index.mjs), run by a Node given a small heap. */
const SERVER = fileURLToPath(new URL("../../build/node/index.mjs", import.meta.url));
const MiB = 1024 * 1024;
const docsV1 = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");
// One object of 3 MiB of `{}` items, the largest the default object limit admits: estimated to
// hold about 170 MiB, a tree far larger than a 96 MiB old space can hold.
const dense = (() => {
  const review = JSON.parse(docsV1) as { request: { objects: Record<string, unknown>[] } };
  review.request.objects = [{ ...review.request.objects[0], items: new Array(1_040_000).fill({}) }];
  return JSON.stringify(review);
})();

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGTERM");
});

/**
 * The server under `--max-old-space-size=96` and a young generation of 3 × 16 MiB (V8's own size
 * on a host over 2 GiB, smaller on smaller ones, so pinned here): a heap limit of 144 MiB.
 */
async function smallHeapServer(env: Record<string, string>) {
  if (!existsSync(SERVER)) throw new Error("build/node/index.mjs is missing: run `npm run build:node` (npm test does)");
  const child = spawn(process.execPath, ["--max-old-space-size=96", "--max-semi-space-size=16", SERVER], {
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
  });
  running.push(child);
  const output = { stdout: "", stderr: "" };
  child.stdout!.on("data", (chunk) => (output.stdout += chunk));
  child.stderr!.on("data", (chunk) => (output.stderr += chunk));
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(`${code ?? signal}`)));
  const url = await listeningOn(child, "the server");
  const post = (body: string) =>
    fetch(`${url}/convert?timeout=30s`, { method: "POST", headers: { "content-type": "application/json" }, body });
  return { child, output, exited, post };
}

describe("the built Node server in a Node given a small heap", () => {
  it("refuses a review larger than the heap could hold with a clean Failure, and serves on", async () => {
    // The largest body then holds 32 MiB at least, within the 48 MiB the heap leaves for reviews.
    const server = await smallHeapServer({ CRDSHIFT_BODY_LIMIT_BYTES: String(8 * MiB) });
    expect(dense.length).toBeGreaterThan(3 * MiB - 64 * 1024);
    const refused = await server.post(dense);
    expect(refused.status).toBe(200);
    const { response } = (await refused.json()) as { response: { result: { status: string; message: string } } };
    expect(response.result.status).toBe("Failure");
    expect(response.result.message).toContain("over this webhook's limit of 48.0 MiB (CRDSHIFT_MAX_BYTES_IN_FLIGHT)");
    const converted = await server.post(docsV1);
    expect(converted.status).toBe(200);
    expect(((await converted.json()) as { response: { result: { status: string } } }).response.result.status).toBe(
      "Success",
    );
    expect(server.child.exitCode).toBeNull();
    expect(server.output.stdout).not.toContain("heap limit below the in-flight cap");
    expect(server.output.stderr).not.toContain("heap out of memory");
  });

  it("with a cap set above what the heap leaves: warns at start, and the same review ends the process", async () => {
    // What the server's default was before it read the heap limit: the review is admitted.
    const server = await smallHeapServer({
      CRDSHIFT_BODY_LIMIT_BYTES: String(8 * MiB),
      CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(256 * MiB),
    });
    const warning = server.output.stdout.split("\n").find((line) => line.includes("heap limit below"));
    expect(JSON.parse(warning!)).toMatchObject({
      level: "warn",
      why: expect.stringContaining("CRDSHIFT_MAX_BYTES_IN_FLIGHT (256 MiB) is more than V8's heap limit (144 MiB)"),
    });
    await expect(server.post(dense)).rejects.toThrow();
    expect(await server.exited).toBe("SIGABRT");
    expect(server.output.stderr).toContain("JavaScript heap out of memory");
  });
});
