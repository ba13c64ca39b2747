import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkReply, type SentReview } from "../../src/testing/apiserver";

/** The built `npm start` server (build/node/index.mjs), as a process on 127.0.0.1. */
const SERVER = fileURLToPath(new URL("../../build/node/index.mjs", import.meta.url));
const TOKEN = "node-test-token-0123456789";
const NEXT = "node-next-token-9876543210";
const sent = JSON.parse(readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8")) as SentReview;
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGTERM");
});

async function start(env: Record<string, string>): Promise<string> {
  if (!existsSync(SERVER)) throw new Error("build/node/index.mjs is missing: run `npm run build:node` (npm test does)");
  const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env } });
  running.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

const post = (url: string) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(sent) }).then(async (res) => ({ status: res.status, text: await res.text() }));

describe("the Node server (npm start), over real HTTP", () => {
  it("converts at the token's path and the next token's, and hides itself elsewhere", async () => {
    const base = await start({ CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_TOKEN_NEXT: NEXT });
    for (const token of [TOKEN, NEXT]) {
      const { status, text } = await post(`${base}/convert/${token}?timeout=30s`);
      expect(checkReply(sent, status, text)).toMatchObject({ ok: true });
    }
    expect((await post(`${base}/convert/not-the-token-0123456789`)).status).toBe(404);
    expect((await post(`${base}/convert`)).status).toBe(404);
  });

  it("answers callers from allowed networks only, by the socket's address", async () => {
    const open = await start({ CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8, 127.0.0.0/8" });
    expect((await post(`${open}/convert`)).status).toBe(200);
    // A header cannot make a caller someone else: only the socket counts on Node.
    const closed = await start({ CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8" });
    const res = await fetch(`${closed}/convert`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "10.1.2.3", "CF-Connecting-IP": "10.1.2.3" },
      body: JSON.stringify(sent),
    });
    expect(res.status).toBe(404);
  });
});
