import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { reviewBody } from "./objects";
import { besideBench, inRepo } from "./paths";

const NODE_SERVER = inRepo("build/node/index.mjs");
const BARE_SERVER = besideBench("bare-server.mjs");

export interface HttpRow {
  objects: number;
  loadGenerator: string;
  crdshift: { rps: number; p50: number; p99: number; errors: number };
  bare: { rps: number; p50: number; p99: number; errors: number };
  ratio: number;
}

/**
 * The Node server against a bare node:http server doing the same conversion, each in its own
 * process on 127.0.0.1, driven by wrk where installed, else autocannon, in this process.
 */
export async function benchHttp(sizes = [1, 100], seconds = 10): Promise<HttpRow[]> {
  const wrk = spawnSync("wrk", ["--version"]).error === undefined;
  const rows: HttpRow[] = [];
  for (const n of sizes) {
    const body = reviewBody(n);
    const crdshift = await measure(NODE_SERVER, 18787, "/convert", body, seconds, wrk);
    const bare = await measure(BARE_SERVER, 18788, "/", body, seconds, wrk);
    rows.push({
      objects: n,
      loadGenerator: wrk ? "wrk" : "autocannon",
      crdshift,
      bare,
      ratio: crdshift.rps / bare.rps,
    });
  }
  return rows;
}

async function measure(script: string, port: number, path: string, body: string, seconds: number, wrk: boolean) {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  try {
    await ready(port);
    const url = `http://127.0.0.1:${port}${path}`;
    await load(url, body, 2, wrk); // warm up the JIT
    return await load(url, body, seconds, wrk);
  } finally {
    await stop(child);
  }
}

async function load(url: string, body: string, seconds: number, wrk: boolean) {
  if (wrk) return loadWrk(url, body, seconds);
  const result = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    connections: 50,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

function loadWrk(url: string, body: string, seconds: number) {
  const script = `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${JSON.stringify(body)}\n`;
  const file = join(tmpdir(), `crdshift-wrk-${process.pid}.lua`);
  writeFileSync(file, script);
  const out = spawnSync("wrk", ["-t1", "-c50", `-d${seconds}s`, "--latency", "-s", file, url], {
    encoding: "utf8",
  }).stdout;
  rmSync(file);
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
  const ms = (re: RegExp) => {
    const m = re.exec(out);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
  };
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50: ms(/50%\s+([\d.]+)(us|ms|s)/),
    p99: ms(/99%\s+([\d.]+)(us|ms|s)/),
    errors: num(/Non-2xx or 3xx responses:\s+(\d+)/) || 0,
  };
}

async function ready(port: number) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server on port ${port} did not start`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
