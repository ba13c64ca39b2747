import { vi } from "vitest";

/**
 * Waits until `done()` holds, polling, and fails the test if it has not within `timeoutMs`: a
 * wait on an event (a report, a count), never a fixed time, bounded so a missed event is a
 * failure and not a hang.
 */
export async function until(done: () => boolean, what = "the awaited condition", timeoutMs = 10_000): Promise<void> {
  await vi.waitFor(
    () => {
      if (!done()) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    },
    { timeout: timeoutMs, interval: 20 },
  );
}
