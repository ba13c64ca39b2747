import { readdirSync, readFileSync } from "node:fs";
import { Miniflare } from "miniflare";
import { WORKERS_DEFAULTS } from "../src/server/config";
import { denseReviewBody, reviewBody } from "./objects";
import { heldByShape } from "../src/conversion/held-memory";
import { scanBody } from "../src/json";
import { inRepo } from "./paths";
import { descendantsNamed, MiB, resetPeak, residentBytes } from "./process-memory";
import { heapNeeded } from "./workerd-heap";

// `npm run bench:workers-memory`: the deployable Worker (build/worker-modules) in workerd, on
// this machine, through miniflare. For each case a fresh workerd: one small review to warm it,
// then the case's reviews at once; the figure is workerd's peak resident memory over its size
// before them. That counts everything workerd holds for the request (its buffers too, and
// garbage V8 has not collected: local workerd sets no heap limit), so it is more than the
// isolate's share, which is what Cloudflare's 128 MB caps. Then the V8 heap the same cases need:
// the smallest --max-old-space-size under which they convert (bench/workerd-heap.ts).

const MODULES = inRepo("build/worker-modules");
const PER_OBJECT = reviewBody(1000).length / 1000;

interface Case {
  name: string;
  /** Body size of each review, MiB. */
  mib: number;
  concurrent: number;
  /** Bindings; none: WORKERS_DEFAULTS apply. */
  env: Record<string, string>;
  /** A dense body (`{}` items) rather than realistic CronTabs. */
  dense?: boolean;
}

const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(readFileSync(inRepo("wrangler.toml"), "utf8"))![1]!;
const realistic = (mib: number) => reviewBody(Math.floor((mib * MiB) / PER_OBJECT));
const review = (mib: number, dense = false) => (dense ? denseReviewBody(mib * MiB) : realistic(mib));
const held = (text: string) => heldByShape(text.length, scanBody(text));
// The densest body the defaults accept: the largest body of `{}` items whose estimate fits the cap.
let densestMiB = WORKERS_DEFAULTS.bodyLimitBytes / MiB;
while (held(denseReviewBody(densestMiB * MiB)) > WORKERS_DEFAULTS.maxBytesInFlight) densestMiB *= 0.97;
const UNBOUNDED = { CRDSHIFT_BODY_LIMIT_BYTES: String(64 * MiB), CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(1024 * MiB) };
const limitMiB = WORKERS_DEFAULTS.bodyLimitBytes / MiB;
const CASES: Case[] = [
  ...[4, 8, 16, 30].map((mib) => ({ name: `one review, unbounded`, mib, concurrent: 1, env: UNBOUNDED })),
  { name: "two at once, unbounded", mib: 4, concurrent: 2, env: UNBOUNDED },
  { name: "four of the largest at once, defaults", mib: limitMiB * 0.98, concurrent: 4, env: {} },
  { name: "densest accepted, defaults", mib: densestMiB, concurrent: 1, env: {}, dense: true },
  { name: "four densest accepted at once, defaults", mib: densestMiB, concurrent: 4, env: {}, dense: true },
  { name: "dense, the issue's 7 MiB, defaults", mib: 7, concurrent: 1, env: {}, dense: true },
];

async function measure({ mib, concurrent, env, dense }: Case): Promise<{ overMiB: number; statuses: string[] }> {
  const modules = ["worker.js", ...readdirSync(`${MODULES}/chunks`).map((file) => `chunks/${file}`)];
  const mf = new Miniflare({
    modules: modules.map((path) => ({ type: "ESModule" as const, path: `${MODULES}/${path}` })),
    modulesRoot: MODULES,
    compatibilityDate,
    bindings: env,
    // Over HTTP, as a client sends (miniflare's dispatchFetch would send the body chunked).
    host: "127.0.0.1",
    port: 0,
  });
  try {
    const url = await mf.ready;
    const [workerd] = descendantsNamed(process.pid, "workerd");
    if (workerd === undefined) throw new Error("no workerd process found under this one");
    const send = (body: string) =>
      fetch(new URL("/convert", url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    await (await send(reviewBody(10))).text();
    const body = review(mib, dense);
    const before = residentBytes(workerd).now;
    resetPeak(workerd);
    const statuses = await Promise.all(
      Array.from({ length: concurrent }, async () => {
        const res = await send(body);
        const text = await res.text();
        // A review refused for what it would hold is answered 200 with a Failure: say which.
        return res.status === 200 && text.includes('"Failure"') ? "200 Failure" : String(res.status);
      }),
    );
    return { overMiB: (residentBytes(workerd).peak - before) / MiB, statuses };
  } finally {
    await mf.dispose();
  }
}

console.log(`Worker bundle in workerd (miniflare); peak resident memory over the warm isolate's`);
console.log(`defaults: body limit ${limitMiB} MiB, bytes in flight ${WORKERS_DEFAULTS.maxBytesInFlight / MiB} MiB`);
console.log(
  `the densest body the defaults accept: ${densestMiB.toFixed(2)} MiB of {} items, estimated to hold ${(held(review(densestMiB, true)) / MiB).toFixed(0)} MiB`,
);
for (const c of CASES) {
  const { overMiB, statuses } = await measure(c);
  const per = overMiB / (c.mib * c.concurrent);
  console.log(
    `${c.name.padEnd(40)} ${c.concurrent} x ${c.mib.toFixed(1).padStart(5)} MiB: +${overMiB.toFixed(0).padStart(4)} MiB (${per.toFixed(1)} x the bytes sent) statuses ${statuses.join(",")}`,
  );
}

const HEAPS = [16, 24, 32, 48, 64, 96, 128, 192, 256];
const ISOLATE_MIB = 128;
console.log(
  `\nV8 heap needed (smallest --max-old-space-size of ${HEAPS.join(", ")} MiB under which all convert, a 429 retried after its Retry-After)`,
);
const overIsolate: string[] = [];
for (const c of CASES) {
  const body = review(c.mib, c.dense);
  const bodies = Array.from({ length: c.concurrent }, () => body);
  const heap = await heapNeeded(HEAPS, { bodies, rounds: 1 }, compatibilityDate, c.env);
  console.log(`${c.name.padEnd(40)} ${c.concurrent} x ${c.mib.toFixed(1).padStart(5)} MiB: ${heap ?? "over 256"} MiB`);
  // What the defaults accept must fit an isolate; the unbounded cases are there for comparison.
  if (Object.keys(c.env).length === 0 && !(heap !== undefined && heap <= ISOLATE_MIB)) overIsolate.push(c.name);
}
const heap = await heapNeeded(HEAPS, { bodies: [review(limitMiB * 0.98)], rounds: 4 }, compatibilityDate, {});
console.log(
  `${"four of the largest, one after another".padEnd(40)} 4 x ${(limitMiB * 0.98).toFixed(1).padStart(5)} MiB: ${heap ?? "over 256"} MiB`,
);
if (!(heap !== undefined && heap <= ISOLATE_MIB)) overIsolate.push("four of the largest, one after another");
console.log(
  overIsolate.length === 0
    ? `every case at the defaults converts within the isolate's ${ISOLATE_MIB} MiB: ok`
    : `NOT OK, over the isolate's ${ISOLATE_MIB} MiB at the defaults: ${overIsolate.join("; ")}`,
);
if (overIsolate.length > 0) process.exitCode = 1;
