import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { availableParallelism, loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULTS } from "../src/server/config";
import { heldByShape } from "../src/conversion/held-memory";
import { scanBody } from "../src/json";
import { denseReviewBody, reviewBody } from "./objects";
import { inRepo } from "./paths";
import { MiB, resetPeak, residentBytes } from "./process-memory";

// `npm run bench:memory`: the Node server as `npm start` builds and runs it (build/node/index.mjs
// under the V8 heap limit its script sets), on 127.0.0.1, sent 12 reviews of 30 MiB at once, as an
// apiserver would: a 429 is sent again after its Retry-After, within the apiserver's 30 s.
// Meanwhile /healthz is polled and the server's resident memory read (its peak is the kernel's).
// Rounds, each on a fresh server: the 12 one after another (what a cap of one review could do at
// best: V8 collects a review's garbage only some time after it), then the burst at the default
// CRDSHIFT_MAX_BYTES_IN_FLIGHT, then the burst with no bound worth the name, for comparison. Every
// round is bounded in time. The last line holds the burst at the default to issue 33's mark: a
// peak of at most 400 MiB, every review answered 200 (after 429s retried), /healthz answering
// every poll, the server never ended. Then the same burst of the densest body the default cap
// accepts (`{}` items), held to the same marks. Exit 1 if a mark is missed.

const REVIEWS = 12;
const PEAK_MARK_MIB = 400;
const BODY_MIB = 30;
const APISERVER_BUDGET_MS = 30_000;
const ROUND_LIMIT_MS = 120_000;
const HEALTH_EVERY_MS = 100;

const realistic = Buffer.from(reviewBody(Math.floor((BODY_MIB * MiB) / (reviewBody(1000).length / 1000))));
const estimate = (text: string) => heldByShape(text.length, scanBody(text));
// The densest body the default cap accepts: the largest body of `{}` items whose estimate fits it.
// The estimate grows about as the body does: start from a MiB's, then step down to it.
let denseMiB = (1.02 * DEFAULTS.maxBytesInFlight) / estimate(denseReviewBody(MiB));
while (estimate(denseReviewBody(denseMiB * MiB)) > DEFAULTS.maxBytesInFlight) denseMiB *= 0.99;
const dense = Buffer.from(denseReviewBody(denseMiB * MiB));

// The heap limit `npm start` gives Node, read from its script so that the two cannot differ.
const HEAP_FLAG = (() => {
  const { scripts } = JSON.parse(readFileSync(inRepo("package.json"), "utf8")) as { scripts: { start: string } };
  const flag = /--max-old-space-size=\d+/.exec(scripts.start)?.[0];
  if (flag === undefined) throw new Error(`npm start sets no --max-old-space-size: ${scripts.start}`);
  return flag;
})();

interface Server {
  child: ChildProcess;
  port: number;
}

async function start(maxBytesInFlight: number): Promise<Server> {
  const child = spawn(process.execPath, [HEAP_FLAG, inRepo("build/node/index.mjs")], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(maxBytesInFlight) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (found) resolve(Number(found[1]));
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
  // Its log lines are not read from here on; keep the pipe flowing.
  child.stdout!.resume();
  return { child, port };
}

/**
 * A request's status, its Retry-After and, for a review answered 200, whether its reply is a
 * Failure (`result` comes before `convertedObjects`, so its head says) or cut short.
 */
function post(port: number, path: string, payload: Buffer): Promise<{ status: number | string; retryAfter: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: payload.length ? "POST" : "GET",
        agent: false,
        headers: payload.length ? { "content-type": "application/json", "content-length": payload.length } : {},
      },
      (res) => {
        let head = "";
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          if (head.length < 4096) head += chunk.subarray(0, 4096).toString("latin1");
          bytes += chunk.length;
        });
        res.on("end", () => {
          const declared = Number(res.headers["content-length"] ?? bytes);
          const status =
            res.statusCode === 200 && payload.length && head.includes('"status":"Failure"')
              ? "200 Failure"
              : bytes === declared
                ? (res.statusCode ?? 0)
                : `${res.statusCode} cut short`;
          resolve({ status, retryAfter: Number(res.headers["retry-after"] ?? NaN) });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** One review as the apiserver sends it: again after each 429's Retry-After, within 30 s. */
async function review(port: number, body: Buffer): Promise<{ status: number | string; tries: number }> {
  const started = Date.now();
  for (let tries = 1; ; tries++) {
    let answer: { status: number | string; retryAfter: number };
    try {
      answer = await post(port, "/convert?timeout=30s", body);
    } catch (error) {
      return { status: (error as Error).message, tries };
    }
    const again = answer.retryAfter * 1000;
    if (answer.status !== 429 || !(again >= 0) || Date.now() - started + again > APISERVER_BUDGET_MS) {
      return {
        status: Date.now() - started > APISERVER_BUDGET_MS ? `${answer.status} after 30 s` : answer.status,
        tries,
      };
    }
    await sleep(again);
  }
}

interface Round {
  idleMiB: number;
  /** How the server ended during the round (its exit code or signal), or null: it served on. */
  ended: number | string | null;
  peakMiB: number;
  statuses: Array<number | string>;
  tries: number;
  health: { polls: number; answered: number; slowestMs: number };
  seconds: number;
}

async function round(body: Buffer, maxBytesInFlight: number, reviews: number, oneAtATime = false): Promise<Round> {
  const server = await start(maxBytesInFlight);
  const { pid } = server.child;
  try {
    await post(server.port, "/convert", Buffer.from(reviewBody(10)));
    await sleep(500);
    const idle = residentBytes(pid!).now;
    resetPeak(pid!);
    const health = { polls: 0, answered: 0, slowestMs: 0 };
    let done = false;
    const polling = (async () => {
      while (!done) {
        const sent = Date.now();
        health.polls++;
        const answer = await post(server.port, "/healthz", Buffer.alloc(0)).catch(() => undefined);
        if (answer?.status === 200) health.answered++;
        health.slowestMs = Math.max(health.slowestMs, Date.now() - sent);
        await sleep(HEALTH_EVERY_MS);
      }
    })();
    const started = Date.now();
    const burst = oneAtATime
      ? (async () => {
          const answers = [];
          for (let i = 0; i < reviews; i++) answers.push(await review(server.port, body));
          return answers;
        })()
      : Promise.all(Array.from({ length: reviews }, () => review(server.port, body)));
    const limit = sleep(ROUND_LIMIT_MS).then(() => {
      throw new Error(`the round took over ${ROUND_LIMIT_MS / 1000} s`);
    });
    const answers = await Promise.race([burst, limit]);
    const seconds = (Date.now() - started) / 1000;
    done = true;
    await polling;
    // A server V8 aborted (its heap limit reached) has no peak left to read: the round failed.
    const ended = server.child.exitCode ?? server.child.signalCode;
    return {
      idleMiB: idle / MiB,
      peakMiB: ended === null ? residentBytes(pid!).peak / MiB : NaN,
      ended,
      statuses: answers.map((a) => a.status),
      tries: answers.reduce((sum, a) => sum + a.tries, 0),
      health,
      seconds,
    };
  } finally {
    server.child.kill();
  }
}

function show(name: string, r: Round): void {
  const counts = new Map<string, number>();
  for (const s of r.statuses) counts.set(String(s), (counts.get(String(s)) ?? 0) + 1);
  if (r.ended !== null) console.log(`${name}: THE SERVER ENDED (${r.ended})`);
  console.log(
    `${name.padEnd(34)} idle ${r.idleMiB.toFixed(0)} MiB, peak ${r.peakMiB.toFixed(0)} MiB (+${(r.peakMiB - r.idleMiB).toFixed(0)}); ` +
      `replies ${[...counts].map(([s, n]) => `${n}x ${s}`).join(", ")} after ${r.tries - r.statuses.length} 429s retried, ${r.seconds.toFixed(1)} s; ` +
      `/healthz ${r.health.answered}/${r.health.polls} answered, slowest ${r.health.slowestMs} ms`,
  );
}

const cap = DEFAULTS.maxBytesInFlight;
const unbounded = 64 * 1024 * MiB;
console.log(
  `Node server (${HEAP_FLAG} build/node/index.mjs), ${REVIEWS} reviews of ${(realistic.length / MiB).toFixed(1)} MiB at once; load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")} on ${availableParallelism()} cores`,
);
const sequential = await round(realistic, unbounded, REVIEWS, true);
show("one after another", sequential);
const bounded = await round(realistic, cap, REVIEWS);
show(`at once, ${cap / MiB} MiB in flight (default)`, bounded);
const free = await round(realistic, unbounded, REVIEWS);
show(`at once, ${unbounded / MiB} MiB in flight`, free);
const denseBounded = await round(dense, cap, REVIEWS);
show(`dense ${(dense.length / MiB).toFixed(1)} MiB, at once (default)`, denseBounded);
// The cap's budget: as many whole reviews at once as fit in it by the estimate of what each
// holds, each growing the server as much as one at a time did.
const each = estimate(realistic.toString());
console.log(
  `each review is estimated to hold ${(each / MiB).toFixed(0)} MiB, each dense one ${(estimate(dense.toString()) / MiB).toFixed(0)} MiB (conversion/held-memory.ts)`,
);
const fit = Math.max(1, Math.floor(cap / each));
const budget = bounded.idleMiB + fit * (sequential.peakMiB - sequential.idleMiB);
console.log(
  `the default cap's budget (${fit} at once): ${budget.toFixed(0)} MiB; peak at once ${bounded.peakMiB.toFixed(0)} MiB, ${(bounded.peakMiB / budget).toFixed(2)}x the budget; unbounded ${free.peakMiB.toFixed(0)} MiB, ${(free.peakMiB / budget).toFixed(2)}x`,
);
let missed = false;
for (const [name, r] of [
  ["realistic", bounded],
  ["dense", denseBounded],
] as const) {
  const allConverted = r.statuses.every((status) => status === 200);
  const healthy = r.health.polls > 0 && r.health.answered === r.health.polls;
  const ok = r.ended === null && r.peakMiB <= PEAK_MARK_MIB && allConverted && healthy;
  missed ||= !ok;
  console.log(
    `${name} at the default cap: peak ${r.peakMiB.toFixed(0)} MiB (mark ${PEAK_MARK_MIB}), every review 200: ${allConverted ? "yes" : "NO"} (${r.tries - r.statuses.length} 429s retried), ` +
      `/healthz throughout: ${healthy ? "yes" : "NO"} (slowest ${r.health.slowestMs} ms): ${ok ? "ok" : "NOT OK"}`,
  );
}
if (missed) process.exitCode = 1;
