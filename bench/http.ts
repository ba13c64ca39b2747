import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { type PostsAnswered, postWithAutocannon } from "./autocannon-posts";
import { reviewBody } from "./objects";
import { besideBench, inRepo } from "./paths";
import { median } from "./stats";

const TOKEN = "bench-token-0123456789abcdef";

/** A server under load: its script, its port, the path reviews go to, its environment. */
export interface Peer {
  name: string;
  script: string;
  port: number;
  path: string;
  env?: Record<string, string>;
  /** Set once started. */
  pid?: number;
}

/** `npm start`'s bundle with a path token, as a cluster would run it. */
export const CRDSHIFT_SERVER: Peer = {
  name: "crdshift",
  script: inRepo("build/node/index.mjs"),
  port: 18787,
  path: `/convert/${TOKEN}`,
  env: { CRDSHIFT_TOKEN: TOKEN },
};
export const NAIVE_WEBHOOK: Peer = { name: "naive", script: besideBench("naive-webhook.mjs"), port: 18788, path: "/" };

export interface Load extends PostsAnswered {
  /**
   * The server's own CPU time (user + system, from /proc) per request answered: unlike req/s,
   * it does not count the time the server waited for a core the load generator held.
   */
  cpuUs: number;
  /** Of which in the kernel (system time): reading and writing sockets, mostly. */
  systemUs: number;
}

export interface HttpSide extends Load {
  /** Requests/s of each run, in order. */
  runs: number[];
}

export interface HttpRow {
  objects: number;
  connections: number;
  seconds: number;
  crdshift: HttpSide;
  naive: HttpSide;
  /** crdshift's req/s over the naive webhook's: the median of each round's ratio. */
  ratio: number;
  /** Server CPU per request, crdshift over the naive webhook. */
  cpuRatio: number;
}

export interface HttpOptions {
  sizes?: number[];
  rounds?: number;
  seconds?: number;
  connections?: number;
}

/**
 * crdshift's Node server against the naive node:http webhook, each in its own process on
 * 127.0.0.1 with its log lines going to /dev/null, loaded by autocannon in this process. Both
 * are started once and warmed up; then runs alternate (A B B A ...), so a neighbour's burst of
 * work falls on both alike. Each side's figures are the medians of its runs; the ratios are the
 * medians of each round's (the two runs of a round are back to back).
 */
export async function benchHttp(options: HttpOptions = {}): Promise<HttpRow[]> {
  const { sizes = [1], rounds = 5, seconds = 3, connections = 10 } = options;
  return withServers([CRDSHIFT_SERVER, NAIVE_WEBHOOK], async ([crdshift, naive]) => {
    const rows: HttpRow[] = [];
    for (const objects of sizes) {
      const body = reviewBody(objects);
      const runs = await alternate([crdshift!, naive!], body, { rounds, seconds, connections });
      const [ours, theirs] = runs.map(summary) as [HttpSide, HttpSide];
      rows.push({
        objects,
        connections,
        seconds,
        crdshift: ours,
        naive: theirs,
        ratio: median(ours.runs.map((rps, i) => rps / theirs.runs[i]!)),
        cpuRatio: median(runs[0]!.map((run, i) => run.cpuUs / runs[1]![i]!.cpuUs)),
      });
    }
    return rows;
  });
}

/** Warms each peer up, then runs each `rounds` times, the order reversed every round. */
export async function alternate(
  peers: Peer[],
  body: string,
  { rounds, seconds, connections }: Required<Omit<HttpOptions, "sizes">>,
): Promise<Load[][]> {
  for (const peer of peers) {
    await converts(peer, body);
    await load(peer, body, Math.min(2, seconds), connections);
  }
  const runs: Load[][] = peers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? peers : [...peers].reverse();
    for (const peer of order) runs[peers.indexOf(peer)]!.push(await load(peer, body, seconds, connections));
  }
  return runs;
}

/** A 200 carries Failures too: each peer must convert the body before its speed means anything. */
async function converts(peer: Peer, body: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${peer.port}${peer.path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  if (!response.ok || !text.includes('"status":"Success"') || !text.includes('"host":"db-0.payments.svc"'))
    throw new Error(`${peer.name} did not convert the review: ${response.status} ${text.slice(0, 300)}`);
}

export function summary(runs: Load[]): HttpSide {
  return {
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
    systemUs: median(runs.map((r) => r.systemUs)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    runs: runs.map((r) => r.rps),
  };
}

export async function load(peer: Peer, body: string, seconds: number, connections: number): Promise<Load> {
  const before = cpuSeconds(peer.pid);
  const answered = await postWithAutocannon(`http://127.0.0.1:${peer.port}${peer.path}`, body, connections, seconds);
  const after = cpuSeconds(peer.pid);
  return {
    ...answered,
    cpuUs: ((after.user + after.system - before.user - before.system) * 1e6) / answered.requests,
    systemUs: ((after.system - before.system) * 1e6) / answered.requests,
  };
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture node runs on

/** A process's CPU time so far, in user space and in the kernel, in seconds; NaN where /proc is not there. */
export function cpuSeconds(pid: number | undefined): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) in parentheses: utime is the 12th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
  } catch {
    return { user: Number.NaN, system: Number.NaN };
  }
}

/**
 * Starts each peer in its own node process, stdout and stderr to /dev/null (crdshift's log
 * lines are written, as in production, and thrown away), runs `work`, and stops them.
 */
export async function withServers<T>(
  peers: Peer[],
  work: (peers: Peer[]) => Promise<T>,
  nodeFlags: string[] = [],
): Promise<T> {
  const children = peers.map((peer) =>
    spawn(process.execPath, [...nodeFlags, peer.script], {
      env: { PATH: process.env.PATH ?? "", PORT: String(peer.port), HOST: "127.0.0.1", ...peer.env },
      stdio: "ignore",
    }),
  );
  try {
    for (const peer of peers) await ready(peer.port);
    return await work(peers.map((peer, i) => ({ ...peer, pid: children[i]!.pid })));
  } finally {
    await Promise.all(children.map(stop));
  }
}

async function ready(port: number) {
  for (let i = 0; i < 200; i++) {
    try {
      // crdshift answers /healthz; the naive webhook answers anything but a POST with "ok".
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server on port ${port} did not start`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
