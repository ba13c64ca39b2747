import os from "node:os";
import { benchColdStart } from "./cold-start";
import { benchEngine } from "./engine";
import { benchHttp } from "./http";
import { benchMemory } from "./memory";
import { benchWorkers } from "./workers";

/**
 * `npm run bench`: every figure a median over repeated runs, every comparison measured side by
 * side in this one run, each printed beside its target. `--json` for machines;
 * `--only=engine,http,cold,workers,memory` for a part; `--quick` for fewer, shorter runs.
 */
const args = process.argv.slice(2);
const json = args.includes("--json");
const quick = args.includes("--quick");
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const wants = (part: string) => !only || only.includes(part);
const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);

const machine = `${os.cpus().length} x ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const report: Record<string, unknown> = { machine, date: new Date().toISOString() };
const f = (n: number, digits = 2) => n.toFixed(digits);
const verdict = (ok: boolean) => (ok ? "meets target" : "MISSES target");

say(`crdshift bench on ${machine}`);

if (wants("engine")) {
  const rows = await benchEngine(quick ? [1, 100, 1000] : [1, 100, 1000, 10_000]);
  report.engine = rows;
  say(
    "\nEngine: request body -> reply body, over the floor JSON.parse + JSON.stringify of the same body (target <= 1.5x at 100 and 10,000)",
  );
  say("objects  body      floor ms   crdshift ms  ratio  us/object");
  for (const r of rows) {
    const target = r.objects === 100 || r.objects === 10_000 ? `  ${verdict(r.ratio <= 1.5)}` : "";
    say(
      `${String(r.objects).padStart(7)}  ${(r.bodyBytes / 1024).toFixed(0).padStart(6)} KB  ${f(r.floorMs, 3).padStart(8)}  ${f(r.crdshiftMs, 3).padStart(11)}  ${f(r.ratio).padStart(5)}x  ${f(r.usPerObject, 1).padStart(8)}${target}`,
    );
  }
}

if (wants("memory")) {
  const m = benchMemory(quick ? 2000 : 10_000, quick ? 3 : 5);
  report.memory = m;
  say(
    `\nMemory: peak RSS converting ${m.objects} objects: floor ${f(m.floorMiB, 0)} MiB, crdshift ${f(m.crdshiftMiB, 0)} MiB, ratio ${f(m.ratio)}x (target <= 1.4x) ${verdict(m.ratio <= 1.4)}`,
  );
}

if (wants("cold")) {
  const c = benchColdStart(quick ? 10 : 25);
  report.coldStart = c;
  say(
    `\nLambda cold start: fresh node + import build/lambda/index.mjs + one function URL event: ${f(c.lambdaMs, 1)} ms; node -e 0: ${f(c.nodeMs, 1)} ms`,
  );
  say(
    `  over node -e 0: ${f(c.overNodeMs, 1)} ms, median of ${c.runs} interleaved runs (target <= 45 ms) ${verdict(c.overNodeMs <= 45)}`,
  );
}

if (wants("workers")) {
  const w = await benchWorkers(quick ? [1, 100] : [1, 100, 1000]);
  report.workers = w;
  say(
    `\nWorkers: main module ${f(w.bundleBytes / 1024, 1)} KiB, gzip ${f(w.gzipBytes / 1024, 1)} KiB (target <= 40 KB gzip) ${verdict(w.gzipBytes <= 40_000)}`,
  );
  say(
    `  + CloudWatch SDK modules, imported only with CRDSHIFT_METRICS=cloudwatch: gzip ${f(w.lazyGzipBytes / 1024, 1)} KiB`,
  );
  say("  CPU per review inside workerd (timed in the isolate; free plan limit 10 ms):");
  for (const r of w.reviews)
    say(
      `  ${String(r.objects).padStart(5)} objects: ${f(r.crdshiftMs, 3)} ms (floor ${f(r.floorMs, 3)} ms, ${f(r.ratio)}x)`,
    );
}

if (wants("http")) {
  const rows = await benchHttp([1, 100], quick ? 3 : 10);
  report.http = rows;
  say(
    `\nHTTP on 127.0.0.1, 50 connections, load from ${rows[0]?.loadGenerator}: crdshift's Node server vs a bare node:http server doing the same conversion (target >= 0.75x at 1 object)`,
  );
  say("objects  crdshift req/s  p50 ms  p99 ms  errors | bare req/s  p50 ms  p99 ms | ratio");
  for (const r of rows) {
    const target = r.objects === 1 ? `  ${verdict(r.ratio >= 0.75)}` : "";
    say(
      `${String(r.objects).padStart(7)}  ${f(r.crdshift.rps, 0).padStart(14)}  ${f(r.crdshift.p50, 1).padStart(6)}  ${f(r.crdshift.p99, 1).padStart(6)}  ${String(r.crdshift.errors).padStart(6)} | ${f(r.bare.rps, 0).padStart(10)}  ${f(r.bare.p50, 1).padStart(6)}  ${f(r.bare.p99, 1).padStart(6)} | ${f(r.ratio)}x${target}`,
    );
  }
}

if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
