import { convertBody, floor } from "./convert-body";
import { reviewBody } from "./objects";
import { median } from "./stats";

export interface EngineRow {
  objects: number;
  bodyBytes: number;
  floorMs: number;
  crdshiftMs: number;
  ratio: number;
  usPerObject: number;
}

/** Repetitions per sample: about 2,000 objects of work (tens of ms), at least one. */
const repsFor = (objects: number) => Math.max(1, Math.round(2000 / objects));
const roundsFor = (objects: number) => (objects >= 10_000 ? 15 : 21);
const WARM_UP_ROUNDS = 3;

/**
 * A full collection between samples of large reviews, where node runs with --expose-gc (npm run
 * bench does): else one side's garbage may be collected in the other's time, which at 10,000
 * objects (tens of MB a sample) decides a ratio. Not for small ones: a forced collection costs
 * the next sample some of V8's optimized code, the engine's more than the floor's, which would
 * inflate the ratio at one object.
 */
const forcedGc = (globalThis as { gc?: () => void }).gc;
const collectorFor = (objects: number) => (objects >= LARGE && forcedGc ? forcedGc : () => {});
const LARGE = 1000;

/**
 * Two ways of doing the same work, measured interleaved in this process, sample by sample; the
 * medians of each, and the median of each round's ratio: the two samples of a round are taken
 * back to back, so a busy neighbour slows both alike. The first rounds warm up the JIT.
 */
async function sideBySide(
  objects: number,
  first: () => unknown,
  second: () => unknown,
): Promise<{ firstMs: number; secondMs: number; ratio: number }> {
  const reps = repsFor(objects);
  const collect = collectorFor(objects);
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < roundsFor(objects) + WARM_UP_ROUNDS; round++) {
    collect();
    let start = performance.now();
    for (let k = 0; k < reps; k++) await first();
    const firstMs = (performance.now() - start) / reps;
    collect();
    start = performance.now();
    for (let k = 0; k < reps; k++) await second();
    const secondMs = (performance.now() - start) / reps;
    if (round >= WARM_UP_ROUNDS) (a.push(firstMs), b.push(secondMs));
  }
  return { firstMs: median(a), secondMs: median(b), ratio: median(b.map((ms, i) => ms / a[i]!)) };
}

async function checked(body: string): Promise<void> {
  const reply = await convertBody(body);
  if (!reply.includes('"status":"Success"')) throw new Error(`conversion failed: ${reply.slice(0, 300)}`);
}

/**
 * Full conversion of a body to a reply body (every safety on: the depth and size checks, the
 * envelope, the limits, the guards, the NaN check) over JSON.parse + JSON.stringify of the same
 * body.
 */
export async function benchEngine(sizes = [1, 100, 1000, 10_000]): Promise<EngineRow[]> {
  const rows: EngineRow[] = [];
  for (const objects of sizes) {
    const body = reviewBody(objects);
    await checked(body);
    const {
      firstMs: floorMs,
      secondMs: crdshiftMs,
      ratio,
    } = await sideBySide(
      objects,
      () => floor(body),
      () => convertBody(body),
    );
    rows.push({
      objects,
      bodyBytes: body.length,
      floorMs,
      crdshiftMs,
      ratio,
      usPerObject: (crdshiftMs * 1000) / objects,
    });
  }
  return rows;
}
