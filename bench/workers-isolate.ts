import { convertBody, floor } from "./convert-body";
import { reviewBody } from "./objects";

/**
 * Runs inside workerd: times conversions in the isolate itself (not miniflare's request
 * latency). Its clock ticks in whole milliseconds, so each sample repeats the work.
 */
export default {
  async fetch(request: Request): Promise<Response> {
    const n = Number(new URL(request.url).searchParams.get("n"));
    const body = reviewBody(n);
    const reps = Math.max(3, Math.ceil(3000 / n));
    const ours: number[] = [];
    const base: number[] = [];
    for (let round = 0; round < 9; round++) {
      let t = performance.now();
      for (let k = 0; k < reps; k++) floor(body);
      base.push((performance.now() - t) / reps);
      t = performance.now();
      for (let k = 0; k < reps; k++) await convertBody(body);
      ours.push((performance.now() - t) / reps);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    return Response.json({ objects: n, crdshiftMs: median(ours), floorMs: median(base) });
  },
};
