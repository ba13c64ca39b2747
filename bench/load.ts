import { loadavg } from "node:os";
import { cacheFill, watchEvents } from "./apiserver-pattern";
import { withServers } from "./http";
import { loadTable, medianOfRounds } from "./load-report";
import { measure, type Measured, type Scenario } from "./load-scenario";
import { lambdaTarget, nodeTargets, type Target, workerdTarget } from "./load-targets";
import { soak } from "./load-soak";
import { median } from "./stats";

/**
 * `npm run load`: the kube-apiserver's call pattern (bench/apiserver-pattern.ts) against
 * `npm start`'s Node server and the naive node:http webhook (alternated, rounds apart), the
 * built Worker in workerd, and the Lambda bundle behind a function URL stand-in. Exits 1 if the
 * apiserver would have rejected any reply. `--soak` runs the old flood instead (50 connections,
 * memory growth). Flags: --objects=N --events=N --rounds=N --only=node,workerd,lambda --long
 * --no-gzip (the client does not ask for gzip) --json.
 */
const argv = process.argv.slice(2);
const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const long = argv.includes("--long");
const json = argv.includes("--json");
// Asked for gzip, miniflare's entry Worker compresses each reply, as Cloudflare's edge would outside the Worker.
const gzip = !argv.includes("--no-gzip");
const objects = Number(flag("objects") ?? (long ? 50_000 : 5_000));
const events = Number(flag("events") ?? (long ? 10_000 : 1_000));
const rounds = Number(flag("rounds") ?? (long ? 5 : 3));
const only = new Set((flag("only") ?? "node,workerd,lambda").split(","));
const say = (line: string) => !json && console.log(line);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

// Since Kubernetes 1.37 a watch cache fills with up to 10 calls at once; before, one at a time.
const SCENARIOS: Scenario[] = [
  { name: "cache fill", unit: "object", concurrency: 1, units: (offset) => cacheFill(objects, offset) },
  { name: "cache fill", unit: "object", concurrency: 10, units: (offset) => cacheFill(objects, offset) },
  { name: "watch events", unit: "event", concurrency: 1, units: (offset) => watchEvents(events, offset) },
];
const WARM_UP: Scenario = { name: "warm-up", unit: "object", concurrency: 10, units: (o) => cacheFill(2000, o) };

let offset = 0;
const next = (target: Target, scenario: Scenario) => measure(target, scenario, (offset += 100_000), gzip);

/** Runs every scenario `times` times on each target, the targets' order reversed every round. */
async function alternate(targets: Target[], times: number, warm: boolean): Promise<Measured[]> {
  if (warm) for (const target of targets) await next(target, WARM_UP);
  const runs: Measured[] = [];
  for (let round = 0; round < times; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const scenario of SCENARIOS) for (const target of order) runs.push(await next(target, scenario));
  }
  return runs;
}

/** Starts the targets' servers, runs them, and stops them. */
function run(targets: Target[], times: number, warm: boolean): Promise<Measured[]> {
  return withServers(
    targets.map((t) => t.peer),
    (peers) =>
      alternate(
        targets.map((t, i) => ({ ...t, peer: peers[i]! })),
        times,
        warm,
      ),
  );
}

if (argv.includes("--soak")) {
  const result = await soak(Number(flag("seconds") ?? 30), say);
  if (json) console.log(JSON.stringify(result));
  process.exitCode = result.ok ? 0 : 1;
} else {
  const started = { loadAverage: load(), at: new Date().toISOString() };
  say(
    `npm run load: ${objects} objects per cache fill, ${events} watch events; Node ${process.version}; ` +
      `load average ${started.loadAverage}`,
  );
  const runs: Measured[] = [];
  if (only.has("node")) runs.push(...(await run(await nodeTargets(), rounds, true)));
  if (only.has("workerd")) runs.push(...(await run([await workerdTarget()], 1, true)));
  if (only.has("lambda")) runs.push(...(await run([await lambdaTarget()], 1, false)));

  const key = (m: Measured) => `${m.server} ${m.scenario} ${m.concurrency}`;
  const groups = new Map<string, Measured[]>();
  for (const m of runs) groups.set(key(m), [...(groups.get(key(m)) ?? []), m]);
  const rows = [...groups.values()].map(medianOfRounds);
  // crdshift over the naive webhook, the median of each round's ratio (the two runs back to back).
  const ratios = SCENARIOS.map((s) => {
    const side = (server: string) => runs.filter((m) => key(m) === `${server} ${s.name} ${s.concurrency}`);
    const [ours, theirs] = [side("crdshift"), side("naive")];
    return {
      scenario: s.name,
      concurrency: s.concurrency,
      throughput: median(ours.map((m, i) => m.perSecond / theirs[i]!.perSecond)),
      cpuPerCall: median(ours.map((m, i) => m.serverCpuUs / theirs[i]!.serverCpuUs)),
    };
  }).filter((r) => Number.isFinite(r.throughput));
  const rejected = rows.reduce((sum, m) => sum + m.rejected, 0);
  const ended = load();

  if (json) {
    console.log(
      JSON.stringify({ objects, events, rounds, node: process.version, started, ended, rows, ratios, rejected, runs }),
    );
  } else {
    say(`\n${loadTable(rows)}\n`);
    for (const r of ratios)
      say(
        `crdshift / naive, ${r.scenario} at ${r.concurrency}: ${r.throughput.toFixed(2)}× the throughput, ` +
          `${r.cpuPerCall.toFixed(2)}× the server CPU per call (median of ${rounds} rounds)`,
      );
    for (const m of rows.filter((r) => Number.isFinite(r.standInCpuUs)))
      say(
        `${m.server}, ${m.scenario} at ${m.concurrency}: the function URL stand-in's own CPU ` +
          `${Math.round(m.standInCpuUs)} µs per call (not the function's, not in the table)`,
      );
    say(`load average at the end: ${ended}`);
    for (const m of rows.filter((r) => r.rejected > 0))
      say(`${m.server}, ${m.scenario} at ${m.concurrency}: ${m.rejected} replies rejected: ${m.reasons.join(" | ")}`);
    say(rejected === 0 ? "every reply accepted" : "FAILED: replies the apiserver would reject");
  }
  process.exitCode = rejected === 0 ? 0 : 1;
}
