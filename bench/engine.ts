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

/**
 * Full conversion of a body to a reply body over JSON.parse + JSON.stringify of the same body,
 * measured side by side, interleaved, in one process; medians of many rounds.
 */
export async function benchEngine(sizes = [1, 100, 1000, 10_000]): Promise<EngineRow[]> {
  const rows: EngineRow[] = [];
  for (const n of sizes) {
    const body = reviewBody(n);
    const reps = Math.max(1, Math.round(20_000 / n)); // each sample ~20k objects of work
    const rounds = n >= 10_000 ? 15 : 25;
    const ours: number[] = [];
    const base: number[] = [];
    const reply = await convertBody(body);
    if (!reply.includes('"status":"Success"')) throw new Error(`conversion failed: ${reply.slice(0, 300)}`);
    for (let r = 0; r < rounds + 3; r++) {
      let t = performance.now();
      for (let k = 0; k < reps; k++) floor(body);
      const f = (performance.now() - t) / reps;
      t = performance.now();
      for (let k = 0; k < reps; k++) await convertBody(body);
      const c = (performance.now() - t) / reps;
      if (r >= 3) (base.push(f), ours.push(c)); // the first rounds warm up the JIT
    }
    const floorMs = median(base);
    const crdshiftMs = median(ours);
    rows.push({
      objects: n,
      bodyBytes: body.length,
      floorMs,
      crdshiftMs,
      ratio: crdshiftMs / floorMs,
      usPerObject: (crdshiftMs * 1000) / n,
    });
  }
  return rows;
}
