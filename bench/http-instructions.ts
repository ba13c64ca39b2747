import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CRDSHIFT_SERVER, NAIVE_WEBHOOK, type Peer } from "./http";
import { blockInstructions, callgrindBlocks, valgrindMissing } from "./instructions";
import { reviewBody } from "./objects";
import { besideBench } from "./paths";
import { kilo, type Row, table, times } from "./report";
import { median } from "./stats";

/**
 * `npm run bench:http-instructions`: instructions per single-object review of a whole server,
 * socket to reply, for the naive webhook, crdshift's engine on bare node:http, the same engine in a
 * one-route Hono app on @hono/node-server (what Hono and the adapter add) and `npm start`'s
 * bundle (what crdshift's app adds in them). Each server runs under callgrind with a marker preloaded (http-instructions-marker.ts);
 * a sequential client in this process sends `--warm=N` reviews (10000), then `--blocks=N` (5)
 * blocks of `--count=N` (400), each counted alone (a signal before and after it), less any JIT
 * compilation inside the block. The figure is the median block. Two servers are counted at once.
 */
const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const warm = option("warm", 10000);
const count = option("count", 400);
const blocks = option("blocks", 5);
const body = reviewBody(1);
/** `--simulate`: callgrind's cache and branch simulation too (slower). */
const simulate = args.includes("--simulate");

const BARE: Peer = {
  name: "crdshift's engine on bare node:http",
  script: besideBench("bare-server.mjs"),
  port: 18789,
  path: "/",
};
const HONO_ENGINE: Peer = {
  name: "the engine in a one-route Hono app on @hono/node-server",
  script: besideBench("hono-engine-server.mjs"),
  port: 18792,
  path: "/convert/bench-token-0123456789abcdef",
};
const PEERS: Peer[] = [
  { ...NAIVE_WEBHOOK, name: "naive node:http webhook" },
  BARE,
  HONO_ENGINE,
  { ...CRDSHIFT_SERVER, name: "npm start (crdshift/node serve())" },
];

/** Per request: instructions of each block (JIT compilation left out); with --simulate, the other events of the median block. */
interface Counts {
  blocks: number[];
  events: Record<string, number>;
}

async function counted(peer: Peer): Promise<Counts> {
  const dir = mkdtempSync(join(tmpdir(), "crdshift-http-callgrind-"));
  const command = [
    ...callgrindBlocks(`${dir}/out`, simulate ? ["--cache-sim=yes", "--branch-sim=yes"] : []),
    "--import",
    besideBench("http-instructions-marker.mjs"),
    peer.script,
  ];
  const child = spawn(command[0]!, command.slice(1), {
    env: { PATH: process.env.PATH ?? "", PORT: String(peer.port), HOST: "127.0.0.1", ...peer.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let said = "";
  let heard: (() => void) | undefined;
  child.stderr!.on("data", (chunk) => {
    said += chunk;
    heard?.();
  });
  const signalled = async (line: string, times: number) => {
    child.kill("SIGUSR2");
    while (said.split(line).length - 1 < times) await new Promise<void>((resolve) => (heard = resolve));
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let tries = 0; ; tries++) {
      try {
        await post(peer, agent);
        break;
      } catch (error) {
        if (tries > 200) throw error;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
    for (let i = 0; i < warm; i++) await post(peer, agent);
    for (let block = 1; block <= blocks; block++) {
      await signalled("block started", block);
      for (let i = 0; i < count; i++) await post(peer, agent);
      await signalled("block ended", block);
    }
  } finally {
    agent.destroy();
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("close", resolve));
  }
  try {
    const files = Array.from({ length: blocks }, (_, i) => `${dir}/out.${i + 1}`);
    const figures = files.map((file) => blockInstructions(file) / count);
    const middle = files[figures.indexOf(median(figures))];
    return { blocks: figures, events: middle === undefined ? {} : blockEvents(middle, count) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every event callgrind counted in a block, per request (the cache and branch simulation's misses). */
function blockEvents(file: string, requests: number): Record<string, number> {
  const text = readFileSync(file, "utf8");
  const names = /^events: (.+)$/m.exec(text)?.[1]?.split(" ") ?? [];
  const totals = /^summary: (.+)$/m.exec(text)?.[1]?.split(" ").map(Number) ?? [];
  return Object.fromEntries(names.map((name, i) => [name, (totals[i] ?? NaN) / requests]));
}

/**
 * One review, sequentially on the one kept-alive connection; rejects unless converted. A server
 * under callgrind may close the idle connection while another is dumping its counts (node's
 * 5 s keep-alive): a request that met that close on a reused socket is sent again, once.
 */
async function post(peer: Peer, agent: Agent): Promise<void> {
  try {
    await postOnce(peer, agent);
  } catch (error) {
    if ((error as { reusedSocket?: boolean }).reusedSocket !== true) throw error;
    await postOnce(peer, agent);
  }
}

function postOnce(peer: Peer, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: peer.port,
        path: peer.path,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          res.statusCode === 200 && text.includes('"status":"Success"')
            ? resolve()
            : reject(new Error(`${peer.name}: ${res.statusCode} ${text.slice(0, 200)}`)),
        );
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) =>
      reject(Object.assign(error, { reusedSocket: req.reusedSocket && error.code === "ECONNRESET" })),
    );
    req.end(body);
  });
}

const missing = valgrindMissing();
if (missing) {
  process.stderr.write(`${missing}\n`);
  process.exit(1);
}
process.stderr.write(`counting ${PEERS.length} servers under callgrind, two at a time (a few minutes) ...\n`);
const [naive, bare] = await Promise.all([counted(PEERS[0]!), counted(PEERS[1]!)]);
const [honoEngine, start] = await Promise.all([counted(PEERS[2]!), counted(PEERS[3]!)]);
const naiveFigure = median(naive.blocks);
const rows: Row[] = PEERS.map((peer, i) => {
  const { blocks: figures, events } = [naive, bare, honoEngine, start][i]!;
  // Instruction cache misses, data misses (first level and last), branch mispredictions.
  const misses = simulate
    ? `; per request I1 ${kilo(events.I1mr!)}, D1 ${kilo(events.D1mr! + events.D1mw!)}, LL ${kilo(events.ILmr! + events.DLmr! + events.DLmw!)} misses, ${kilo(events.Bcm! + events.Bim!)} mispredicted branches`
    : "";
  return {
    measure: peer.name,
    figure: `${kilo(median(figures))} (blocks ${figures.map(kilo).join(", ")})${misses}`,
    target: times(median(figures) / naiveFigure),
  };
});
process.stdout.write(
  `\nInstructions per single-object review, socket to reply (callgrind, sequential client, ${warm} reviews of warm-up, median of ${blocks} blocks of ${count}, JIT compilation left out)\n\n`,
);
process.stdout.write(`${table(rows, ["server", "instructions per review", "× the naive webhook"])}\n`);
