import { convertBody, floor } from "./convert-body";
import { reviewBody } from "./objects";

/**
 * Runs inside workerd: times conversions in the isolate itself (not miniflare's request
 * latency). Its clock ticks in whole milliseconds, so each sample repeats the work.
 * `?n=100`: the engine over the floor on a 100-object review.
 */
export default {
  async fetch(request: Request): Promise<Response> {
    const n = Number(new URL(request.url).searchParams.get("n"));
    const body = reviewBody(n);
    const sides = [floor, convertBody];
    const reps = Math.max(3, Math.ceil(3000 / n));
    const times: [number[], number[]] = [[], []];
    for (let round = 0; round < 9; round++) {
      for (const side of [0, 1] as const) {
        const start = performance.now();
        for (let k = 0; k < reps; k++) await sides[side]!(body);
        times[side].push((performance.now() - start) / reps);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const [a, b] = [median(times[0]), median(times[1])];
    // Each round's two samples are back to back: the median of their ratios.
    const ratio = median(times[1].map((ms, i) => ms / times[0][i]!));
    return Response.json({ objects: n, floorMs: a, crdshiftMs: b, ratio });
  },
};
