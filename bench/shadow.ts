import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import * as http from "node:http";
import { fileURLToPath } from "node:url";
import { registry } from "../examples";
import { readConfig } from "../src/server/config";
import { convertBody } from "../src/conversion/convert-review";
import { noMetrics } from "../src/metrics/metrics";
import { createShadow } from "../src/shadow/shadow";
import { compareReplies, readSent } from "../src/shadow/shadow-comparison";
import { REPORTED } from "../src/shadow/shadow-report";
import type { Registry } from "../src/conversion";
import { hostile } from "../test/fixtures/hostile-registries";
import { median, percentile } from "./stats";

/**
 * `npm run bench:shadow`: what a shadow candidate costs the live path. Part one, over HTTP: the
 * Node server (serve(), in a process of its own) answers the docs page's v1 review from 4
 * keep-alive connections, without a shadow and with every review sampled
 * (CRDSHIFT_SHADOW_SAMPLE=1) for a candidate that agrees, throws, never settles, spins 5 ms per
 * object, allocates 32 MB per object or answers with 2,000,000 items per object; the figures are
 * the live replies' latencies, as the client sees them. Part two, in-process: the longest the
 * event loop is held by a shadowed review, which is the longest a live request arriving then
 * waits, per candidate. Part three, in-process: the CPU of one shadowed review (the candidate's
 * conversion and the comparison) next to the live conversion's. Part four: what a worker thread
 * for the candidate would cost. Part five, in workerd: a one-object review's wait right behind a
 * shadowed one, per candidate.
 */
const body = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONNECTIONS = 4;
const server = fileURLToPath(new URL("./shadow-server.mjs", import.meta.url));

async function start(candidate: string | undefined, port: number): Promise<ChildProcess> {
  const child = fork(server, [], {
    env: {
      ...process.env,
      PORT: String(port),
      CRDSHIFT_SHADOW_SAMPLE: "1",
      ...(candidate ? { BENCH_CANDIDATE: candidate } : {}),
    },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise((resolve) => child.once("message", resolve));
  return child;
}

async function load(port: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/convert?timeout=30s",
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            latencies.push(performance.now() - started);
            resolve();
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const worker = async () => {
    while (sent++ < REQUESTS) await one();
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  return latencies.slice(Math.floor(REQUESTS / 10)); // the first tenth warms up
}

const ms = (value: number) => value.toFixed(3);
const oneObject = (fields: Record<string, unknown>) => {
  const review = JSON.parse(body);
  review.request.objects = [{ ...review.request.objects[0], ...fields }];
  return JSON.stringify(review);
};
const largeList = oneObject({ items: new Array<number>(400_000).fill(7) });
const threadFigures = await threadCost();
console.log(`live reply latency, ${REQUESTS} reviews (docs-v1, 2 objects) over ${CONNECTIONS} connections, ms`);
console.log("candidate            median     p90     p99   max");
let port = 18_700;
for (const candidate of [undefined, "same", "throws", "never-settles", "slow-5ms", "allocates-32MB", "floods-2M"]) {
  const child = await start(candidate, ++port);
  const latencies = await load(port);
  child.kill();
  const row = [median(latencies), percentile(latencies, 90), percentile(latencies, 99), Math.max(...latencies)];
  console.log(
    `${(candidate ?? "(no shadow)").padEnd(18)} ${row
      .map(ms)
      .map((v) => v.padStart(7))
      .join(" ")}`,
  );
}

const limits = readConfig({});

// Part two: the event loop's longest hold while a shadow runs. Work waiting on the loop (a turn
// each time the loop comes round, as a live request's I/O would) records the longest gap
// between two of its turns; each shadow is a fresh one, so the idle share holds none back.
const HOLD_ROUNDS = Number(process.env.BENCH_HOLD_ROUNDS ?? 20);
const holdCases: Array<[string, Registry | undefined, string]> = [
  ["(no shadow)", undefined, body],
  ["same", registry, body],
  ["throws", hostile.throws(), body],
  ["slow-5ms", hostile.slow(5), body],
  ["allocates-32MB", hostile.allocates(32), body],
  ["floods-2M (1 object)", hostile.floods(2_000_000), oneObject({ items: [] })],
  ["floods-2M (2 objects)", hostile.floods(2_000_000), body],
  ["same, 400,000 items", registry, largeList],
];

async function longestHold(candidate: Registry | undefined, review: string) {
  const live = await convertBody(registry, review, { limits });
  if (!live.ok) throw new Error("the review must convert");
  let longest = 0;
  let last = performance.now();
  let waiting = true;
  const turn = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (waiting) setImmediate(turn);
  };
  setImmediate(turn);
  const took: number[] = [];
  for (let i = 0; i < HOLD_ROUNDS; i++) {
    const started = performance.now();
    if (candidate) {
      const shadow = createShadow({ ...shadowOptions, candidate, later: setImmediate });
      await shadow(review, live.text);
    } else await new Promise((resolve) => setTimeout(resolve, 20));
    took.push(performance.now() - started);
  }
  waiting = false;
  return { longest, took: median(took) };
}

const shadowOptions = { sample: 1, limits, log: () => {}, metrics: noMetrics, now: () => performance.now() };
console.log(`\nlongest hold of the event loop while a shadow runs, ${HOLD_ROUNDS} shadowed reviews each, ms`);
console.log("candidate                 longest hold   shadow took (median)");
for (const [name, candidate, review] of holdCases) {
  const { longest, took } = await longestHold(candidate, review);
  console.log(`${name.padEnd(25)} ${ms(longest).padStart(12)} ${ms(took).padStart(20)}`);
}

// The same comparison of two equal 400,000-item lists in one slice: what slicing keeps off the loop.
{
  const live = await convertBody(registry, largeList, { limits });
  if (!live.ok) throw new Error("the review must convert");
  const whole = { sliceSteps: Number.POSITIVE_INFINITY, maxSteps: Number.POSITIVE_INFINITY, expired: () => false };
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await compareReplies(readSent(largeList), live.text, live.text, REPORTED, {
      ...whole,
      nextTurn: async () => {},
    });
    times.push(performance.now() - started);
  }
  console.log(`the 400,000-item comparison unsliced: ${ms(median(times))} ms in one hold`);
}

// Part three: CPU per review, in this process, the candidate being the live registry itself.
const live = await convertBody(registry, body, { limits });
if (!live.ok) throw new Error("the docs review must convert");
const options = {
  candidate: registry,
  sample: 1,
  limits,
  log: () => {},
  metrics: noMetrics,
  now: () => performance.now(),
  later: (work: () => void) => work(),
};
const ROUNDS = 20_000;
const time = async (work: () => unknown) => {
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) await work();
  return ((performance.now() - started) / ROUNDS) * 1000;
};
// A fresh shadow each round: one holds back the next for a while after each (IDLE_FACTOR).
const shadowOnce = () => createShadow(options)(body, live.text);
for (const work of [() => convertBody(registry, body, { limits }), shadowOnce]) await time(work);
const liveUs = await time(() => convertBody(registry, body, { limits }));
const shadowUs = await time(shadowOnce);
console.log(
  `\nCPU per review, in-process: live conversion ${liveUs.toFixed(1)} us; one shadowed review (candidate + comparison) ${shadowUs.toFixed(1)} us (${(shadowUs / liveUs).toFixed(1)}x)`,
);

console.log(threadFigures);

// Part five, in workerd (miniflare): one isolate, every review shadowed. A review of the docs
// page's two objects, then, as soon as its reply is in, a one-object review: how long that one
// waits for the isolate while the first one's shadow runs. workerd's clock stands still while
// code runs, so this is timed from outside, miniflare's own latency included (the row without a
// shadow shows it).
{
  const { Miniflare } = await import("miniflare");
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(toml)![1]!;
  const mf = new Miniflare({
    modules: true,
    scriptPath: fileURLToPath(new URL("./shadow-isolate.mjs", import.meta.url)),
    compatibilityDate,
    // The shadow's log lines, which workerd writes to its stdout and stderr, are not the bench's output.
    handleRuntimeStdio: (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => {
      stdout.resume();
      stderr.resume();
    },
  });
  const probe = oneObject({});
  const ROUNDS = Number(process.env.BENCH_ISOLATE_ROUNDS ?? 30);
  const send = async (candidate: string | undefined, review: string) => {
    const res = await mf.dispatchFetch("http://bench/convert?timeout=30s", {
      method: "POST",
      headers: { "content-type": "application/json", ...(candidate ? { "x-candidate": candidate } : {}) },
      body: review,
    });
    await res.text();
  };
  try {
    console.log(`\nin workerd: a one-object review right behind a shadowed one, ${ROUNDS} rounds, ms`);
    console.log("candidate            median      max");
    for (const candidate of [undefined, "same", "slow-5ms", "allocates-32MB", "floods-2M"]) {
      for (let i = 0; i < 10; i++) await send(candidate, body);
      const waits: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        await send(candidate, body);
        const sent = performance.now();
        await send(undefined, probe);
        waits.push(performance.now() - sent);
      }
      const name = (candidate ?? "(no shadow)").padEnd(18);
      console.log(`${name} ${ms(median(waits)).padStart(8)} ${ms(Math.max(...waits)).padStart(8)}`);
    }
  } finally {
    await mf.dispose();
  }
}

// Part four: what moving the candidate to a worker thread would cost on Node: the thread's
// start (the engine and a registry loaded again, in an isolate of its own), the memory it
// keeps, and a review's round trip (its text sent, the reply's text sent back). Measured
// first, before the other parts' garbage makes the resident size move on its own.
async function threadCost(): Promise<string> {
  const { Worker } = await import("node:worker_threads");
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const thread = new Worker(fileURLToPath(new URL("./shadow-thread.mjs", import.meta.url)));
  const replies: Array<(text: string) => void> = [];
  let ready: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  thread.on("message", (text: string) => (text === "ready" ? ready() : replies.shift()!(text)));
  await isReady;
  const startMs = performance.now() - started;
  const ask = (review: string) =>
    new Promise<string>((resolve) => {
      replies.push(resolve);
      thread.postMessage(review);
    });
  await ask(body);
  const rssAfter = process.memoryUsage().rss;
  const trips: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const sent = performance.now();
    await ask(body);
    trips.push(performance.now() - sent);
  }
  const largeTrips: number[] = [];
  for (let i = 0; i < 10; i++) {
    const sent = performance.now();
    await ask(largeList);
    largeTrips.push(performance.now() - sent);
  }
  await thread.terminate();
  return (
    `\na worker thread for the candidate: started and loaded in ${ms(startMs)} ms, ` +
    `${((rssAfter - rssBefore) / 1024 / 1024).toFixed(1)} MiB more resident; a review's round trip ` +
    `${(median(trips) * 1000).toFixed(1)} us (docs-v1), ${ms(median(largeTrips))} ms (400,000 items)`
  );
}
