import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import * as http from "node:http";
import { fileURLToPath } from "node:url";
import { registry } from "../examples";
import { readConfig } from "../src/server/config";
import { convertBody } from "../src/conversion/convert-review";
import { noMetrics } from "../src/metrics/metrics";
import { createShadow } from "../src/shadow/shadow";
import { median, percentile } from "./stats";

/**
 * `npm run bench:shadow`: what a shadow candidate costs the live path. Part one, over HTTP: the
 * Node server (serve(), in a process of its own) answers the docs page's v1 review from 4
 * keep-alive connections, without a shadow and with every review sampled
 * (CRDSHIFT_SHADOW_SAMPLE=1) for a candidate that agrees, throws, never settles, spins 5 ms per
 * object or allocates 32 MB per object; the figures are the live replies' latencies, as the
 * client sees them. Part two, in-process: the CPU of one shadowed review (the candidate's
 * conversion and the comparison) next to the live conversion's.
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
console.log(`live reply latency, ${REQUESTS} reviews (docs-v1, 2 objects) over ${CONNECTIONS} connections, ms`);
console.log("candidate            median     p90     p99   max");
let port = 18_700;
for (const candidate of [undefined, "same", "throws", "never-settles", "slow-5ms", "allocates-32MB"]) {
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

// Part two: CPU per review, in this process, the candidate being the live registry itself.
const limits = readConfig({});
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
