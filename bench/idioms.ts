import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cronTab } from "./objects";
import { median } from "./stats";

/**
 * How fast V8 builds a converter's result, "the object minus one field, plus new ones", written
 * the ways users write it. Each idiom runs in a fresh process so that one's inline caches cannot
 * slow another. `npm run build:bench && node dist/bench/idioms.mjs`.
 */
type Idiom = (object: Record<string, unknown>) => Record<string, unknown>;

const split = (hostPort: string) => {
  const colon = hostPort.lastIndexOf(":");
  return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
};

const IDIOMS: Record<string, { safe: boolean; idiom: Idiom }> = {
  "{ ...rest, host, port }": {
    safe: true,
    idiom: ({ hostPort, ...rest }) => {
      const { host, port } = split(hostPort as string);
      return { ...rest, host, port };
    },
  },
  "Object.assign(rest, { host, port })": {
    safe: true,
    idiom: ({ hostPort, ...rest }) => Object.assign(rest, split(hostPort as string)),
  },
  "{ host, port, ...rest }": {
    safe: true,
    idiom: ({ hostPort, ...rest }) => {
      const { host, port } = split(hostPort as string);
      return { host, port, ...rest };
    },
  },
  "Object.assign({}, rest, { host, port })": {
    safe: false,
    idiom: ({ hostPort, ...rest }) => Object.assign({}, rest, split(hostPort as string)),
  },
};

const OBJECTS = 1000;
const ROUNDS = 41;

/** µs per object, median of rounds, in this process. */
function measure(idiom: Idiom): number {
  // Parsed, as the webhook hands them over; a fresh batch per round, as each review is.
  const text = JSON.stringify(Array.from({ length: OBJECTS }, (_, i) => cronTab(i)));
  const times: number[] = [];
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const objects = JSON.parse(text) as Record<string, unknown>[];
    const start = performance.now();
    for (const object of objects) sink += Object.keys(idiom(object)).length;
    times.push(((performance.now() - start) * 1000) / OBJECTS);
  }
  if (sink === 0) throw new Error("nothing was built");
  return median(times);
}

const only = process.argv[2];
if (only !== undefined) {
  process.stdout.write(String(measure(IDIOMS[only]!.idiom)));
} else {
  const script = fileURLToPath(import.meta.url);
  const rows = Object.entries(IDIOMS).map(([name, { safe }]) => {
    const runs = Array.from({ length: 5 }, () => Number(spawnSync(process.execPath, [script, name], { encoding: "utf8" }).stdout));
    return { name, safe, us: median(runs) };
  });
  const spread = rows[0]!.us;
  for (const row of rows) {
    const note = row.safe ? "" : "  (loses a field named __proto__)";
    console.log(`${row.name.padEnd(42)} ${row.us.toFixed(3)} µs/object  ${(spread / row.us).toFixed(1)}× the spread's speed${note}`);
  }
}
