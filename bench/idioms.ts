import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";
import { DEFAULTS } from "../src/server/config";
import { convertBody } from "../src/conversion/convert-review";
import { createRegistry, defineKind, unstashFields } from "../src/conversion";
import { cronTab, reviewBody } from "./objects";
import { median } from "./stats";

/**
 * How fast V8 builds a converter's result, "the object minus one field, plus new ones", written
 * the ways users write it: alone, and as the docs CronTab's v1beta1 -> v1 converter inside the
 * whole engine (100-object reviews, over JSON.parse + JSON.stringify of the same body). Each idiom
 * runs in fresh processes so that one's inline caches cannot slow another.
 * `npm run build:bench && node build/bench/idioms.mjs`.
 */
type Build = (rest: Record<string, unknown>, fields: { host: string; port: string }) => Record<string, unknown>;

const IDIOMS: Record<string, { safe: boolean; build: Build }> = {
  "{ ...rest, host, port }": { safe: true, build: (rest, { host, port }) => ({ ...rest, host, port }) },
  "Object.assign(rest, { host, port })": {
    safe: true,
    build: (rest, { host, port }) => Object.assign(rest, { host, port }),
  },
  "{ host, port, ...rest }": { safe: true, build: (rest, { host, port }) => ({ host, port, ...rest }) },
  "Object.assign({}, rest, { host, port })": {
    safe: false,
    build: (rest, { host, port }) => Object.assign({}, rest, { host, port }),
  },
};

const split = (hostPort: string) => {
  const colon = hostPort.lastIndexOf(":");
  return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
};

/** µs per object building results alone, median of rounds. */
function alone(build: Build): number {
  // Parsed, as the webhook hands them over; a fresh batch per round, as each review is.
  const text = JSON.stringify(Array.from({ length: 1000 }, (_, i) => cronTab(i)));
  const times: number[] = [];
  let sink = 0;
  for (let round = 0; round < 41; round++) {
    const objects = JSON.parse(text) as Record<string, unknown>[];
    const start = performance.now();
    for (const { hostPort, ...rest } of objects) sink += Object.keys(build(rest, split(hostPort as string))).length;
    times.push(((performance.now() - start) * 1000) / objects.length);
  }
  if (sink === 0) throw new Error("nothing was built");
  return median(times);
}

/** The engine's time over the floor's for 100-object reviews, with the idiom in the converter. */
function inEngine(build: Build): Promise<number> {
  const kind = defineKind({
    group: "example.com",
    kind: "CronTab",
    versions: {
      v1beta1: z.looseObject({ hostPort: z.optional(z.string()) }),
      v1: z.looseObject({ host: z.optional(z.string()), port: z.optional(z.string()) }),
    },
    converters: {
      v1beta1: {
        v1: (object) => {
          const { object: unstashed, fields } = unstashFields(object);
          const { hostPort, ...rest } = unstashed;
          return Object.assign(build(rest, split(hostPort!)), fields);
        },
      },
      v1: { v1beta1: (object) => object },
    },
  });
  const registry = createRegistry([kind]);
  const options = { limits: DEFAULTS };
  const body = reviewBody(100);
  return (async () => {
    const ours: number[] = [];
    const floor: number[] = [];
    for (let round = 0; round < 30; round++) {
      let start = performance.now();
      for (let k = 0; k < 100; k++) JSON.stringify(JSON.parse(body));
      const f = performance.now() - start;
      start = performance.now();
      for (let k = 0; k < 100; k++) {
        const outcome = await convertBody(registry, body, options);
        if (!outcome.ok || outcome.failure) throw new Error("the conversion failed");
      }
      if (round >= 5) (floor.push(f), ours.push(performance.now() - start));
    }
    return median(ours) / median(floor);
  })();
}

const [mode, name] = process.argv.slice(2);
if (mode === "alone" || mode === "engine") {
  const { build } = IDIOMS[name!]!;
  process.stdout.write(String(mode === "alone" ? alone(build) : await inEngine(build)));
} else {
  const script = fileURLToPath(import.meta.url);
  const run = (what: string, idiom: string) =>
    Number(spawnSync(process.execPath, [script, what, idiom], { encoding: "utf8" }).stdout);
  for (const [idiom, { safe }] of Object.entries(IDIOMS)) {
    const us = median(Array.from({ length: 5 }, () => run("alone", idiom)));
    const ratio = median(Array.from({ length: 3 }, () => run("engine", idiom)));
    const note = safe ? "" : "  (loses a field named __proto__)";
    console.log(`${idiom.padEnd(42)} ${us.toFixed(2)} µs/object alone, engine ${ratio.toFixed(2)}× the floor${note}`);
  }
}
