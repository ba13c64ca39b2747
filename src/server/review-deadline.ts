/** Lambda's init limit: no cold start takes longer, so a clock that says otherwise is not trusted. */
const MAX_COLD_START_MS = 10_000;

/**
 * When a review must be answered by: the earliest of the configured budget, less what a cold
 * start spent of it (the apiserver's 30 s run from when it sent the request), and the
 * platform's own limit. `startedAt` (when the instance started) is given for its first request
 * only; every time is in the same clock's milliseconds.
 */
export function reviewDeadline(
  started: number,
  budgetMs: number,
  startedAt: number | undefined,
  platformDeadline: number | undefined,
): number {
  const coldStartMs = startedAt === undefined ? 0 : Math.min(Math.max(0, started - startedAt), MAX_COLD_START_MS);
  const own = started + budgetMs - coldStartMs;
  return platformDeadline === undefined ? own : Math.min(own, platformDeadline);
}
