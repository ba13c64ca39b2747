import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { registry } from "../examples";
import { heldByShape } from "../src/conversion/held-memory";
import { convertBody } from "../src/conversion/convert-review";
import { scanBody } from "../src/json";
import { DEFAULTS } from "../src/server/config";
import { denseReviewBody, reviewBody } from "./objects";
import { MiB } from "./process-memory";

// `npm run bench:held-memory`: what a review holds, against conversion/held-memory.ts's estimate.
// For each body shape, a fresh process converts one body through the engine (every limit at its
// default but the memory cap, so that the dense ones convert) and reports its peak resident
// memory over its size just before; the body is already a string, so the request's and the
// reply's bytes, which the estimate counts too, are not in the figure.

const SHAPES: Record<string, (bytes: number) => string> = {
  "realistic CronTabs": (bytes) => reviewBody(Math.floor(bytes / (reviewBody(1000).length / 1000))),
  "{} items": (bytes) => denseReviewBody(bytes, "{}"),
  "[] items": (bytes) => denseReviewBody(bytes, "[]"),
  '{"a":0} items': (bytes) => denseReviewBody(bytes, '{"a":0}'),
  "0 items": (bytes) => denseReviewBody(bytes, "0"),
  '"" items': (bytes) => denseReviewBody(bytes, '""'),
};
const CASES: Array<[string, number]> = [
  ["realistic CronTabs", 8],
  ["realistic CronTabs", 30],
  ["{} items", 7],
  ["[] items", 7],
  ['{"a":0} items', 7],
  ["0 items", 7],
  ['"" items', 7],
];

function rss(): { now: number; peak: number } {
  const status = readFileSync("/proc/self/status", "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { now: field("VmRSS"), peak: field("VmHWM") };
}

const [shape, mib] = process.argv.slice(2);
if (shape !== undefined) {
  const body = SHAPES[shape]!(Number(mib) * MiB);
  const estimate = heldByShape(body.length, scanBody(body));
  (globalThis as { gc?: () => void }).gc?.();
  const before = rss().now;
  writeFileSync("/proc/self/clear_refs", "5");
  const limits = { ...DEFAULTS, maxBytesInFlight: undefined };
  const outcome = await convertBody(registry, body, {
    limits,
    budget: { deadline: Date.now() + 600_000, budgetMs: 600_000 },
  });
  if (!outcome.ok || outcome.failure) throw new Error(outcome.ok ? outcome.failure!.message : outcome.message);
  const peak = rss().peak - before;
  process.stdout.write(JSON.stringify({ chars: body.length, peak, estimate }));
} else {
  console.log("| body | size | peak over the process before it | estimate | peak / size |");
  console.log("| --- | --: | --: | --: | --: |");
  for (const [name, size] of CASES) {
    const child = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), name, String(size)], {
      encoding: "utf8",
    });
    if (child.status !== 0) throw new Error(`${name}: ${child.stderr}`);
    const { chars, peak, estimate } = JSON.parse(child.stdout) as { chars: number; peak: number; estimate: number };
    const m = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
    console.log(
      `| ${name} | ${(chars / MiB).toFixed(1)} MiB | ${m(peak)} | ${m(estimate)} | ${(peak / chars).toFixed(1)}× |`,
    );
  }
}
