import type { ConversionSide, ReviewRequest } from "../webhook-call";

/** As many calls at once as one watch cache makes while it fills (Kubernetes 1.37, KEP-6178). */
export const FILL_CONCURRENCY = 10;
/** Kept-alive calls one at a time, after the first. */
const SERIAL_CALLS = 20;
/** Calls each of the FILL_CONCURRENCY callers makes once its connection is open. */
const CALLS_PER_CALLER = 5;

/** Wall time of calls made back to back: how a fill spends it. */
export interface Timed {
  calls: number;
  elapsedMs: number;
}

export type FillMeasurement =
  | {
      ok: true;
      /** The first call: a new connection (TLS, any cold start), which a fill pays once. */
      firstMs: number;
      /** One at a time on the kept-alive connection. */
      serial: Timed;
      /** The first FILL_CONCURRENCY at once: as many new connections (on Lambda, new instances). */
      openingRound: Timed;
      /** FILL_CONCURRENCY at once on open connections; no calls when the budget ran out first. */
      concurrent: Timed;
      /** The budget ran out before every planned call was made. */
      cut: boolean;
    }
  | { ok: false; error: string };

/** At most this many calls: the probe's bound on what it asks of a webhook. */
export const FILL_MAX_CALLS = 1 + SERIAL_CALLS + FILL_CONCURRENCY * (1 + CALLS_PER_CALLER);

/**
 * Single-object reviews sent as a watch cache's fill sends them, timed: one at a time, then
 * FILL_CONCURRENCY at once, each on connections kept alive as the apiserver keeps them. No call
 * starts after `budgetMs` (the serial calls stop at half of it), so the whole takes at most
 * that and one call's deadline. A call that fails or is rejected ends it: no cache would fill.
 */
export async function measureFill(
  side: ConversionSide,
  request: () => ReviewRequest,
  budgetMs: number,
): Promise<FillMeasurement> {
  const started = performance.now();
  const serialEnds = started + budgetMs / 2;
  const ends = started + budgetMs;
  let failed: string | undefined;
  const call = async (): Promise<boolean> => {
    if (failed !== undefined) return false;
    const result = await side.convert(request());
    if (!result.verdict.ok) failed ??= result.verdict.error;
    return result.verdict.ok;
  };
  const timed = async (run: () => Promise<number>): Promise<Timed> => {
    const from = performance.now();
    const calls = await run();
    return { calls, elapsedMs: performance.now() - from };
  };

  const first = await timed(async () => ((await call()) ? 1 : 0));
  const serial = await timed(async () => {
    let calls = 0;
    while (calls < SERIAL_CALLS && performance.now() < serialEnds && (await call())) calls++;
    return calls;
  });
  const openingRound = await timed(async () => {
    if (failed !== undefined || performance.now() >= ends) return 0;
    const done = await Promise.all(Array.from({ length: FILL_CONCURRENCY }, call));
    return done.filter(Boolean).length;
  });
  const concurrent = await timed(async () => {
    if (openingRound.calls < FILL_CONCURRENCY) return 0;
    let calls = 0;
    const caller = async () => {
      for (let i = 0; i < CALLS_PER_CALLER && performance.now() < ends && (await call()); i++) calls++;
    };
    await Promise.all(Array.from({ length: FILL_CONCURRENCY }, caller));
    return calls;
  });
  if (failed !== undefined) return { ok: false, error: failed };
  const cut = serial.calls < SERIAL_CALLS || concurrent.calls < FILL_CONCURRENCY * CALLS_PER_CALLER;
  return { ok: true, firstMs: first.elapsedMs, serial, openingRound, concurrent, cut };
}
