import { convertBody, floor } from "./convert-body";
import { hasSourceTextAccess } from "./engine";
import { int64ReviewBody, reviewBody } from "./objects";

/**
 * Runs inside workerd: times conversions in the isolate itself (not miniflare's request
 * latency). Its clock ticks in whole milliseconds, so each sample repeats the work.
 * `?n=100`: the engine over the floor; `?n=100&int64=1`: the engine on a review holding
 * integers beyond 2^53 over the same review without.
 */
export default {
  async fetch(request: Request): Promise<Response> {
    const params = new URL(request.url).searchParams;
    const n = Number(params.get("n"));
    const int64 = params.get("int64") === "1";
    const bodies = int64 ? [int64ReviewBody(n, false), int64ReviewBody(n, true)] : [reviewBody(n), reviewBody(n)];
    const sides = int64 ? [convertBody, convertBody] : [floor, convertBody];
    const reps = Math.max(3, Math.ceil(3000 / n));
    const times: [number[], number[]] = [[], []];
    for (let round = 0; round < 9; round++) {
      for (const side of [0, 1] as const) {
        const start = performance.now();
        for (let k = 0; k < reps; k++) await sides[side]!(bodies[side]!);
        times[side].push((performance.now() - start) / reps);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const [a, b] = [median(times[0]), median(times[1])];
    // Each round's two samples are back to back: the median of their ratios.
    const ratio = median(times[1].map((ms, i) => ms / times[0][i]!));
    return Response.json(
      int64
        ? { objects: n, plainMs: a, int64Ms: b, ratio, sourceTextAccess: hasSourceTextAccess() }
        : { objects: n, floorMs: a, crdshiftMs: b, ratio },
    );
  },
};
