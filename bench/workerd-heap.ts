import { spawn } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { inRepo } from "./paths";

// The deployable Worker in workerd run directly (not through miniflare), with V8's heap capped by
// `--max-old-space-size`: the smallest cap under which a case's reviews all convert is the heap
// they need, what Cloudflare's 128 MB per isolate is about. Over the cap, V8 aborts workerd.

const MODULES = inRepo("build/worker-modules");
const WORKERD = inRepo("node_modules/.bin/workerd");

export interface HeapCase {
  /** Reviews sent at once, each of this body. */
  bodies: string[];
  /** Times the batch is sent, one batch after another. */
  rounds: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function config(port: number, heapMiB: number, compatibilityDate: string, env: Record<string, string>): string {
  const modules = ["worker.js", ...readdirSync(`${MODULES}/chunks`).map((file) => `chunks/${file}`)];
  const bindings = Object.entries(env).map(([name, text]) => `(name = "${name}", text = "${text}")`);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
  v8Flags = ["--max-old-space-size=${heapMiB}"],
);
const w :Workerd.Worker = (
  modules = [ ${modules.map((name) => `(name = "${name}", esModule = embed "${name}")`).join(", ")} ],
  compatibilityDate = "${compatibilityDate}",
  bindings = [ ${bindings.join(", ")} ],
);
`;
}

/**
 * A review's final status as an apiserver sends it: again after each 429's Retry-After, within
 * its 30 s; 0 if the connection broke (workerd aborted).
 */
async function answered(url: string, body: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await fetch(`${url}/convert`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }).then(
      async (res) => (
        await res.arrayBuffer(),
        { status: res.status, again: Number(res.headers.get("retry-after")) * 1000 }
      ),
      () => ({ status: 0, again: NaN }),
    );
    if (answer.status !== 429 || !(answer.again >= 0) || Date.now() - started + answer.again > 30_000)
      return answer.status;
    await sleep(answer.again);
  }
}

/** Whether every review of `c` converts (200, a 429 retried) in a fresh workerd whose V8 heap is capped at `heapMiB`. */
export async function convertsWithin(
  heapMiB: number,
  c: HeapCase,
  compatibilityDate: string,
  env: Record<string, string>,
): Promise<boolean> {
  const port = await freePort();
  const file = `${MODULES}/heap-bench.capnp`;
  writeFileSync(file, config(port, heapMiB, compatibilityDate, env));
  const workerd = spawn(WORKERD, ["serve", file], { cwd: MODULES, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let tries = 0; ; tries++) {
      if (
        await fetch(`${url}/healthz`).then(
          (res) => res.ok,
          () => false,
        )
      )
        break;
      if (tries > 100) throw new Error("workerd did not start");
      await sleep(100);
    }
    for (let round = 0; round < c.rounds; round++) {
      const statuses = await Promise.all(c.bodies.map((body) => answered(url, body)));
      if (statuses.some((status) => status !== 200)) return false;
    }
    return true;
  } finally {
    workerd.kill("SIGKILL");
    // Not left beside the modules `wrangler deploy` uploads.
    rmSync(file, { force: true });
  }
}

/** The smallest of `heaps` (ascending, MiB) under which `c` converts, or undefined. */
export async function heapNeeded(
  heaps: readonly number[],
  c: HeapCase,
  compatibilityDate: string,
  env: Record<string, string>,
): Promise<number | undefined> {
  for (const heap of heaps) if (await convertsWithin(heap, c, compatibilityDate, env)) return heap;
  return undefined;
}
