import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { reviewBody } from "./objects";
import { inRepo } from "./paths";

/**
 * `npm run load`: the Node server (`npm start`'s bundle) in its own process on 127.0.0.1,
 * driven by autocannon at 50 connections for `--seconds` (30 by default) with single-object
 * and 100-object reviews. Reports throughput, latency, errors (which must be 0) and the server's
 * resident memory before, during and after; exits 1 if there were errors or memory kept growing.
 */
const SERVER = inRepo("build/node/index.mjs");
const PORT = 18797;
const seconds = Number(/--seconds=(\d+)/.exec(process.argv.join(" "))?.[1] ?? 30);
const json = process.argv.includes("--json");
/** Growth of resident memory from after warm-up to the end that still counts as flat. */
const GROWTH_BOUND_MIB = 32;

function rssMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

async function ready(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the server did not start");
}

async function drive(body: string, duration: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}/convert`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    connections: 50,
    duration,
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const child: ChildProcess = spawn(process.execPath, [SERVER], {
  env: { PATH: process.env.PATH ?? "", PORT: String(PORT), HOST: "127.0.0.1" },
  stdio: "ignore", // its log lines are written, as in production, and thrown away
});
try {
  await ready();
  const pid = child.pid!;
  const rows = [];
  const say = (line: string) => !json && console.log(line);
  say(`npm run load: ${seconds} s per scenario, 50 connections, autocannon, server pid ${pid}\n`);
  await drive(reviewBody(1), 3); // warm up the JIT before the first memory reading
  await drive(reviewBody(100), 3);
  const before = rssMiB(pid);
  for (const objects of [1, 100]) {
    const samples: number[] = [];
    const timer = setInterval(() => samples.push(rssMiB(pid).rss), 1000);
    const r = await drive(reviewBody(objects), seconds);
    clearInterval(timer);
    rows.push({ objects, ...r, rssMaxMiB: Math.max(...samples) });
    say(
      `${String(objects).padStart(3)} object(s)/review: ${r.requests} reviews, ${r.rps.toFixed(0)} req/s (${(r.rps * objects).toFixed(0)} objects/s), ` +
        `p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, RSS max ${Math.max(...samples).toFixed(0)} MiB`,
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 2000)); // let the last replies drain
  const after = rssMiB(pid);
  const errors = rows.reduce((sum, row) => sum + row.errors, 0);
  const growth = after.rss - before.rss;
  const flat = growth <= GROWTH_BOUND_MIB;
  const verdict = errors === 0 && flat;
  if (json)
    console.log(
      JSON.stringify({
        seconds,
        connections: 50,
        rows,
        rss: { beforeMiB: before.rss, afterMiB: after.rss, peakMiB: after.peak },
        errors,
        ok: verdict,
      }),
    );
  say(
    `\nRSS after warm-up ${before.rss.toFixed(0)} MiB, after the run ${after.rss.toFixed(0)} MiB (growth ${growth.toFixed(0)} MiB, bound ${GROWTH_BOUND_MIB}) ${flat ? "ok" : "GROWING"}; peak ${after.peak.toFixed(0)} MiB`,
  );
  say(`errors: ${errors} ${errors === 0 ? "ok" : "FAILED"}`);
  process.exitCode = verdict ? 0 : 1;
} finally {
  child.kill("SIGTERM");
}
