import os from "node:os";
import { benchColdStart, coldStartInstructionJobs } from "./cold-start";
import { benchEngine } from "./engine";
import { benchHttp } from "./http";
import { benchInt64, int64Rows } from "./int64";
import { type Counted, inParallel, type PerReview, perReview, valgrindMissing } from "./instructions";
import { benchMemory } from "./memory";
import { count, kilo, mega, ms, type Row, table, times, us } from "./report";
import { benchWorkers } from "./workers";

/**
 * `npm run bench`: every figure a median over repeated runs or an instruction count, every
 * comparison measured side by side in this one run, printed as one table beside its target.
 * `--json` for machines; `--only=engine,int64,memory,cold,workers,http,instructions` for a part;
 * `--quick` for fewer, shorter runs; `--check` to exit 1 when a figure misses its target (a
 * plain run always exits 0: on a shared machine a miss may be noise, and the bench is not a test).
 */
const args = process.argv.slice(2);
const json = args.includes("--json");
const quick = args.includes("--quick");
const check = args.includes("--check");
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const wants = (part: string) => !only || only.includes(part);
const progress = (line: string) =>
  process.stderr.write(`${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s  ${line}\n`);

const started = performance.now();
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`;
const report: Record<string, unknown> = { machine, date: new Date().toISOString() };
const rows: Row[] = [];
progress(`crdshift bench on ${machine}`);

if (wants("http")) {
  progress("http: crdshift's Node server vs the naive node:http webhook, alternating runs ...");
  // The 1-object figure, a read's, gets most of the time.
  const http = [
    ...(await benchHttp({ sizes: [1], rounds: quick ? 3 : 5, seconds: quick ? 2 : 3, connections: 10 })),
    ...(quick ? [] : await benchHttp({ sizes: [100], rounds: 3, seconds: 2, connections: 10 })),
  ];
  report.http = http;
  for (const r of http) {
    const clean = r.crdshift.errors === 0 && r.naive.errors === 0;
    // A reported figure: the Node server takes the one request path of every platform, not a faster one.
    rows.push({
      measure: `HTTP req/s, ${r.objects}-object reviews, ${r.connections} connections: crdshift / naive webhook`,
      figure: `${count(r.crdshift.rps)} / ${count(r.naive.rps)} = ${times(r.ratio)}${clean ? "" : `, ${r.crdshift.errors} errors`}`,
      target: "",
      ...(clean ? {} : { ok: false }),
    });
    rows.push({
      measure: `HTTP server CPU per request, ${r.objects}-object reviews: crdshift / naive webhook`,
      figure: `${us(r.crdshift.cpuUs)} / ${us(r.naive.cpuUs)} = ${times(r.cpuRatio)}`,
      target: "",
    });
  }
}

if (wants("engine")) {
  progress("engine: request body -> reply body over JSON.parse + JSON.stringify ...");
  const engine = await benchEngine(quick ? [1, 100, 1000] : [1, 100, 1000, 10_000]);
  report.engine = engine;
  const targets: Record<number, number> = { 1: 1.6, 100: 1.3, 10000: 1.3 };
  for (const r of engine) {
    const target = targets[r.objects];
    rows.push({
      measure: `engine, ${count(r.objects)} object${r.objects === 1 ? "" : "s"}, over JSON.parse + JSON.stringify`,
      figure: `${times(r.ratio)} (${r.objects === 1 ? us(r.crdshiftMs * 1000) : ms(r.crdshiftMs, r.crdshiftMs < 10 ? 2 : 0)} vs ${r.objects === 1 ? us(r.floorMs * 1000) : ms(r.floorMs, r.floorMs < 10 ? 2 : 0)})`,
      target: target ? `≤ ${target}×` : "",
      ...(target ? { ok: r.ratio <= target } : {}),
    });
  }
}

if (wants("int64")) {
  progress("int64: reviews with integers beyond 2^53 over the same reviews without, on Node 20, 22 and workerd ...");
  const runs = await benchInt64(quick, (line) => progress(`  (${line})`));
  report.int64 = runs;
  rows.push(...int64Rows(runs));
}

if (wants("memory")) {
  progress("memory: peak RSS of one large review ...");
  const m = benchMemory(quick ? 2000 : 10_000, quick ? 3 : 5);
  report.memory = m;
  rows.push({
    measure: `peak RSS converting ${count(m.objects)} objects, over the floor's`,
    figure: `${m.crdshiftMiB.toFixed(0)} / ${m.floorMiB.toFixed(0)} MiB = ${times(m.ratio)}`,
    target: "≤ 1.4×",
    ok: m.ratio <= 1.4,
  });
}

if (wants("cold")) {
  progress("cold: Lambda cold starts, crdshift's bundle vs a minimal handler, interleaved ...");
  const c = benchColdStart(quick ? 10 : 25);
  report.coldStart = c;
  rows.push({
    measure: "Lambda cold start, wall: crdshift / minimal handler (node -e 0 alone)",
    figure: `${ms(c.crdshiftMs)} / ${ms(c.minimalMs)} = ${times(c.ratio)} (${ms(c.nodeMs)})`,
    target: "",
  });
  rows.push({
    measure: "Lambda cold start, wall: crdshift over the minimal handler",
    figure: ms(c.overMinimalMs),
    target: "≤ 45 ms",
    ok: c.overMinimalMs <= 45,
  });
}

if (wants("workers")) {
  progress("workers: bundle size and CPU per review inside workerd ...");
  const w = await benchWorkers(quick ? [1, 100] : [1, 100, 1000]);
  report.workers = w;
  rows.push({
    measure: "Workers main module and its static imports, gzip (lazy chunks apart: CloudWatch SDK, shadow)",
    figure: `${(w.gzipBytes / 1024).toFixed(1)} KiB (lazy ${(w.lazyGzipBytes / 1024).toFixed(1)} KiB)`,
    target: "≤ 40 KB",
    ok: w.gzipBytes <= 40_000,
  });
  for (const r of w.reviews) {
    rows.push({
      measure: `Workers CPU per ${count(r.objects)}-object review, over the floor`,
      figure: `${ms(r.crdshiftMs, 3)}, ${times(r.ratio)}`,
      target: "",
    });
  }
}

if (wants("instructions")) {
  const missing = valgrindMissing();
  if (missing) {
    rows.push({ measure: "instruction counts", figure: `not measured: ${missing}`, target: "" });
  } else {
    progress("instructions: valgrind counts of cold starts and of single-object reviews (two at a time) ...");
    const cold = coldStartInstructionJobs();
    // V8 still tiers the engine up after a few hundred reviews: a thousand warm it up.
    const blocks = quick ? { warm: 300, count: 100, blocks: 3 } : { warm: 1000, count: 200, blocks: 5 };
    // The longest first, so the two lanes end together.
    const [engine, floor, crdshiftCold, minimalCold] = await inParallel<unknown>([
      () => perReview("engine", blocks),
      () => perReview("floor", blocks),
      ...cold.jobs,
    ]);
    const c = cold.result([crdshiftCold as Counted, minimalCold as Counted]);
    const p = { floor: floor as PerReview, engine: engine as PerReview };
    report.instructions = { coldStart: c, perReview: p };
    rows.push({
      measure: "Lambda cold start, instructions: crdshift / minimal handler",
      figure: `${mega(c.crdshift)} / ${mega(c.minimal)} = ${times(c.ratio)} (+${mega(c.crdshift - c.minimal)})`,
      target: "",
    });
    const ratio = p.engine.instructions / p.floor.instructions;
    rows.push({
      measure: "instructions per 1-object review: engine / JSON.parse + JSON.stringify",
      figure: `${kilo(p.engine.instructions)} / ${kilo(p.floor.instructions)} = ${times(ratio)}`,
      target: "",
    });
  }
}

const seconds = (performance.now() - started) / 1000;
report.rows = rows;
report.seconds = seconds;
const missed = rows.filter((r) => r.ok === false);
if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else {
  process.stdout.write(`\ncrdshift bench on ${machine}, ${seconds.toFixed(0)} s\n\n${table(rows)}\n`);
  process.stdout.write(
    `\n${missed.length === 0 ? "every figure meets its target" : `${missed.length} figure(s) miss their target${check ? "" : " (exit 0; --check fails on a miss)"}`}\n`,
  );
}
if (check && missed.length > 0) process.exitCode = 1;
