import { hostname, uptime } from "node:os";
import { createJsonLogger } from "crdshift";
import { convertBody, floor } from "./convert-body";
import type { Mode } from "./instruction-modes";
import { reviewBody } from "./objects";

/**
 * Run under callgrind by instructions.ts: `warm` single-object reviews the `mode` way, then
 * `blocks` blocks of `count` more, each between two calls callgrind is told to watch:
 * os.hostname() zeroes its counters (--zero-before), os.uptime() writes them out (--dump-before).
 * `node instructions-child.mjs <mode> <warm> <count> <blocks> [objects]` (objects per review, 1
 * unless given).
 */
const [mode, warm, count, blocks = "1", objects = "1"] = process.argv.slice(2) as [
  Mode,
  string,
  string,
  string?,
  string?,
];
const body = reviewBody(Number(objects));
// The line the app writes for a converted single-object review, as `serve()` writes it: straight
// to stdout (here /dev/null), one write per line.
const log = createJsonLogger((line) => process.stdout.write(`${line}\n`));
const logLine = () =>
  log({
    level: "info",
    msg: "review converted",
    uid: "0a9c7d2e-5f1b-4c3d-8e6f-7a8b9c0d1e2f",
    reviewVersion: "apiextensions.k8s.io/v1",
    desiredAPIVersion: "example.com/v1",
    kinds: ["CronTab.example.com"],
    objects: 1,
    durationMs: 0,
    cold: false,
    result: "success",
  });

const run: Record<Mode, () => unknown> = {
  floor: () => floor(body),
  engine: () => convertBody(body),
  "log-line": logLine,
};

for (let i = 0; i < Number(warm); i++) await run[mode]();
for (let block = 0; block < Number(blocks); block++) {
  hostname(); // callgrind zeroes its counters here (--zero-before)
  for (let i = 0; i < Number(count); i++) await run[mode]();
  uptime(); // and writes them out here (--dump-before)
}
