import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = `${root}bin/crdshift.mjs`;

let dir: string;
let objects: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "crdshift-epipe-"));
  objects = join(dir, "crontabs.json");
  // Megabytes of output: far more than a pipe holds, so writes go on after the reader has gone.
  const items = Array.from({ length: 3_000 }, (_, i) => ({
    apiVersion: "example.com/v1beta1",
    kind: "CronTab",
    metadata: { name: `c${i}`, namespace: "default" },
    hostPort: `host-${"x".repeat(500)}:${i}`,
  }));
  writeFileSync(objects, JSON.stringify({ apiVersion: "v1", kind: "List", items }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("crdshift convert | head -1", () => {
  it("ends quietly, exit 0, when its reader closes the pipe early", { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [BIN, "convert", "-f", objects, "--to", "example.com/v1", "-o", "json"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    // `head -1`: the first line, then the read end is closed.
    const first = await new Promise<string>((resolve) => child.stdout.once("data", (chunk) => resolve(String(chunk))));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on("close", (status) => resolve(status)));
    expect(first).toMatch(/^\{/);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
