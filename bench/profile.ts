import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { breakdown, KERNEL, PARTS } from "./cpu-profile";
import { alternate, CRDSHIFT_SERVER, load, NAIVE_WEBHOOK, type Peer, summary, withServers } from "./http";
import { perReview, valgrindMissing } from "./instructions";
import { reviewBody } from "./objects";
import { besideBench, inRepo } from "./paths";
import { kilo, type Row, table, times, us } from "./report";

/**
 * `npm run bench:profile`: where a single-object review's time goes between the socket and the
 * reply on crdshift's Node server, for the work of taking its overhead out. Three views:
 * 1. five servers side by side, alternating runs: the naive webhook, crdshift's engine on bare
 *    node:http, crdshift's app on @hono/node-server with and without its log line, and
 *    `npm start`'s bundle: req/s and server CPU per request, each step's cost apart;
 * 2. CPU profiles (`node --cpu-prof`) of `npm start`'s server and the naive webhook under the
 *    same load, each sample given to a part of the work (cpu-profile.ts): each part's share times
 *    the server's CPU per request from step 1, in µs;
 * 3. the log line in instructions (valgrind), beside the engine's whole review.
 * `--seconds=N` per run (3), `--rounds=N` (4), `--no-instructions`; `--keep` keeps the two
 * profiles in build/bench/profiles/ (for Chrome DevTools' Performance panel).
 */
const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const seconds = option("seconds", 3);
const rounds = option("rounds", 4);
const connections = 10;
const body = reviewBody(1);
const TOKEN = "bench-token-0123456789abcdef";
const KEPT = besideBench("profiles");
const progress = (line: string) => process.stderr.write(`${line}\n`);

const BARE: Peer = {
  name: "crdshift's engine on bare node:http",
  script: besideBench("bare-server.mjs"),
  port: 18789,
  path: "/",
};
const APP_LOGGED: Peer = {
  name: "crdshift's app on @hono/node-server, log line to /dev/null",
  script: besideBench("app-server.mjs"),
  port: 18790,
  path: `/convert/${TOKEN}`,
  env: { CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_LOG_REVIEWS: "all" },
};
const APP_QUIET: Peer = {
  ...APP_LOGGED,
  name: "crdshift's app on @hono/node-server, no log line",
  port: 18791,
  env: { CRDSHIFT_TOKEN: TOKEN, BENCH_LOG: "off" },
};
const NPM_START: Peer = { ...CRDSHIFT_SERVER, name: "npm start (crdshift/node serve())" };
const NAIVE: Peer = { ...NAIVE_WEBHOOK, name: "naive node:http webhook" };

// 1. Side by side.
progress(`1/3 five servers, ${rounds} alternating runs of ${seconds} s, ${connections} connections ...`);
const peers = [NAIVE, BARE, APP_QUIET, APP_LOGGED, NPM_START];
const sides = await withServers(peers, async (started) =>
  (await alternate(started, body, { rounds, seconds, connections })).map(summary),
);
const naiveSide = sides[0]!;
const sideRows: Row[] = peers.map((peer, i) => {
  const side = sides[i]!;
  return {
    measure: peer.name,
    figure: `${Math.round(side.rps)} req/s (${times(side.rps / naiveSide.rps)}), CPU ${us(side.cpuUs)}/request (+${us(side.cpuUs - naiveSide.cpuUs)})`,
    target: side.errors > 0 ? `${side.errors} errors` : "",
  };
});

// 2. Profiles, one server at a time under the same load.
async function profiled(peer: Peer, bundle: string) {
  const dir = mkdtempSync(join(tmpdir(), "crdshift-profile-"));
  try {
    const window = await withServers(
      [peer],
      async ([started]) => {
        await load(started!, body, 2, connections); // warm up the JIT
        const from = Number(process.hrtime.bigint() / 1000n);
        const run = await load(started!, body, seconds * 3, connections);
        return { from, to: Number(process.hrtime.bigint() / 1000n), run };
      },
      ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval=250"],
    );
    const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error(`${peer.name} wrote no CPU profile`);
    if (args.includes("--keep")) {
      mkdirSync(KEPT, { recursive: true });
      copyFileSync(join(dir, file), join(KEPT, `${peer.port === NAIVE.port ? "naive" : "crdshift"}.cpuprofile`));
    }
    return { parts: breakdown(join(dir, file), bundle, window.from, window.to), run: window.run };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
progress(`2/3 CPU profiles of npm start's server and the naive webhook, ${seconds * 3} s each ...`);
const ours = await profiled(NPM_START, inRepo("build/node/index.mjs"));
const theirs = await profiled(NAIVE, besideBench("naive-webhook.mjs"));
// A profiler slows deep stacks more than shallow ones, and a sample cannot tell a system call
// from time off the core: each part's share of the profile's user-space samples is applied to
// the server's user CPU time per request measured without a profiler (step 1), and the kernel's
// part is the system time.
const estimate = (profile: Map<string, number>, side: { cpuUs: number; systemUs: number }) => {
  const user = [...profile].filter(([part]) => part !== KERNEL).reduce((sum, [, v]) => sum + v, 0);
  return (part: string) =>
    part === KERNEL ? side.systemUs : ((profile.get(part) ?? 0) / user) * (side.cpuUs - side.systemUs);
};
const ourUs = estimate(ours.parts, sides[peers.indexOf(NPM_START)]!);
const theirUs = estimate(theirs.parts, naiveSide);
const profileRows: Row[] = PARTS.map((part) => ({ part, a: ourUs(part), b: theirUs(part) }))
  .filter(({ a, b }) => a >= 0.05 || b >= 0.05)
  .sort((x, y) => y.a - y.b - (x.a - x.b))
  .map(({ part, a, b }) => ({
    measure: part,
    figure: `${us(a)} / ${us(b)}`,
    target: `${a - b >= 0 ? "+" : ""}${us(a - b)}`,
  }));
const cpu = (peer: Peer) => sides[peers.indexOf(peer)]!.cpuUs;
profileRows.push({
  measure: "total: server CPU per request (step 1)",
  figure: `${us(cpu(NPM_START))} / ${us(cpu(NAIVE))}`,
  target: `+${us(cpu(NPM_START) - cpu(NAIVE))}`,
});

// 3. The log line, counted: the line itself, against the review it is written for.
let instructionRows: Row[] = [];
const missing = valgrindMissing();
if (!args.includes("--no-instructions") && !missing) {
  progress("3/3 instructions of the log line and of the engine's review (valgrind) ...");
  const [line, engine] = await Promise.all([perReview("log-line"), perReview("engine", { warm: 1000 })]);
  instructionRows = [
    {
      measure: "instructions per single-object review: the log line / the engine's whole review",
      figure: `${kilo(line.instructions)} / ${kilo(engine.instructions)}`,
      target: times(line.instructions / engine.instructions),
    },
  ];
}

process.stdout.write(
  `\n1. Servers side by side (1-object reviews, ${connections} connections, medians of ${rounds} alternating runs of ${seconds} s; CPU from /proc; log lines to /dev/null)\n\n`,
);
process.stdout.write(`${table(sideRows, ["server", "req/s (× the naive webhook), server CPU per request", "note"])}\n`);
process.stdout.write(
  `\n2. CPU per request by part, npm start's server / the naive webhook: each part's share of the user-space samples of a CPU profile (node --cpu-prof, 250 µs samples, ${Math.round(ours.run.rps)} / ${Math.round(theirs.run.rps)} req/s while profiled) times the user CPU time per request of step 1; the kernel's part is the system time; ranked by the difference\n\n`,
);
process.stdout.write(`${table(profileRows, ["part", "µs per request: crdshift / naive", "difference"])}\n`);
if (instructionRows.length > 0)
  process.stdout.write(
    `\n3. The log line in instructions\n\n${table(instructionRows, ["measure", "figure", "ratio"])}\n`,
  );
else process.stdout.write(`\n3. instructions not counted${missing ? `: ${missing}` : ""}\n`);
