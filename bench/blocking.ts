import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { registry } from "../examples";
import { DEFAULTS } from "../src/server/config";
import { convertBody } from "../src/conversion/convert-review";

/**
 * `npm run bench:blocking`: how long one request body can keep the event loop busy at the
 * default limits (a 32 MiB body, 100,000 objects, 3 MiB per object, 10,000 levels). The engine
 * is synchronous from the body's text to the reply's (the example converters are), so that is
 * the time no other request on the same instance is served. Each body is built to be as costly
 * as its kind allows; the largest time is the figure the README states.
 */
const MiB = 1024 * 1024;
const LIMIT = DEFAULTS.bodyLimitBytes;
const OPTIONS = { limits: DEFAULTS, budget: { budgetMs: 1e9, deadline: Number.MAX_SAFE_INTEGER } };

const envelope = (objects: string, extra = "") =>
  `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"example.com/v1",${extra}"objects":[${objects}]}}`;
/** A valid CronTab the example converts, with `filler` (JSON text) in a field its schema leaves alone. */
const cronTab = (i: number, filler: string) =>
  `{"apiVersion":"example.com/v1beta1","kind":"CronTab","metadata":{"name":"c${i}","namespace":"ns"},"hostPort":"h:1","x":${filler}}`;
/** `count` copies of `item`, comma-separated, in an array. */
const array = (item: string, count: number) => `[${Array(count).fill(item).join(",")}]`;
/** As many objects as fit in the limit, each holding as many `{}` as fit in its share. */
function dense(objects: number, item = "{}"): string {
  const share = Math.floor((LIMIT - 200) / objects) - cronTab(objects, "[]").length - 1;
  const fill = array(item, Math.max(0, Math.floor(share / (item.length + 1))));
  return envelope(Array.from({ length: objects }, (_, i) => cronTab(i, fill)).join(","));
}
function deepChains(depth: number): string {
  const chain = `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const perObject = Math.floor(DEFAULTS.maxObjectBytes / (chain.length + 1)) - 1;
  const object = (i: number) => cronTab(i, array(chain, perObject));
  const objects = Math.floor((LIMIT - 200) / (object(0).length + 1));
  return envelope(Array.from({ length: objects }, (_, i) => object(i)).join(","));
}

const bodies: Array<[string, () => string]> = [
  [
    "11.2 million {} in request.objects (over the objects limit)",
    () =>
      envelope(
        Array(Math.floor((LIMIT - 200) / 3))
          .fill("{}")
          .join(","),
      ),
  ],
  [
    "one object of 32 MiB of {} (over the size limit)",
    () => envelope(cronTab(0, array("{}", Math.floor((LIMIT - 300) / 3)))),
  ],
  ["100,000 CronTabs holding {} to fill 32 MiB", () => dense(100_000)],
  ["11 CronTabs of 3 MiB of {}", () => dense(11)],
  ["11 CronTabs of 3 MiB of []", () => dense(11, "[]")],
  [
    "100,000 CronTabs holding {} and one int64 (the careful path)",
    () => dense(100_000).replace('"hostPort":"h:1"', '"hostPort":"h:1","n":9223372036854775807'),
  ],
  ["11 CronTabs of 3 MiB of int64 beyond 2^53", () => dense(11, "9007199254740993")],
  ["chains 9,990 deep, 3 MiB per CronTab", () => deepChains(9990)],
  [
    "32 MiB of {} beside request.objects",
    () => envelope(cronTab(0, "[]"), `"extra":${array("{}", Math.floor((LIMIT - 300) / 3))},`),
  ],
];

// Each body in a fresh process: the garbage of one must not slow the next.
const which = process.argv[2];
if (which === undefined) {
  let worst = 0;
  for (let i = 0; i < bodies.length; i++) {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(i)], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`${bodies[i]![0]}: ${run.stderr}`);
    process.stdout.write(run.stdout);
    worst = Math.max(worst, Number(run.stdout.split(" s ")[0]));
  }
  console.log(`worst: ${worst.toFixed(2)} s`);
} else {
  const [name, build] = bodies[Number(which)]!;
  const body = build();
  if (body.length > LIMIT) throw new Error(`${name}: ${body.length} bytes, over the limit`);
  const start = performance.now();
  const outcome = await convertBody(registry, body, OPTIONS);
  const ms = performance.now() - start;
  const result = !outcome.ok
    ? `400 ${outcome.message.slice(0, 60)}`
    : outcome.failure
      ? `Failure ${outcome.failure.message.slice(0, 60)}`
      : `Success, ${(outcome.text.length / MiB).toFixed(1)} MiB reply`;
  console.log(`${(ms / 1000).toFixed(2).padStart(6)} s  ${name} (${(body.length / MiB).toFixed(1)} MiB): ${result}`);
}
