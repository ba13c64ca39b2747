import { describe, expect, it } from "vitest";
import { FILL_CONCURRENCY, FILL_MAX_CALLS, measureFill } from "../../../src/cli/doctor/fill-measurement";
import type { ConversionSide, SideResult } from "../../../src/cli/webhook-call";
import { reviewRequest } from "../../../src/cli/webhook-call";

/** A side that answers after a turn of the event loop, counting calls and how many were in flight at once. */
function countingSide(fails?: (call: number) => boolean) {
  const seen = { calls: 0, inFlight: 0, mostAtOnce: 0, uids: new Set<string>() };
  const side: ConversionSide = {
    name: "fake",
    async convert(request) {
      const call = ++seen.calls;
      seen.uids.add(request.review.request.uid);
      seen.inFlight++;
      seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      seen.inFlight--;
      const result: SideResult = fails?.(call)
        ? { verdict: { ok: false, error: `call ${call} failed` }, elapsedMs: 0 }
        : { verdict: { ok: true, objects: [] }, elapsedMs: 0 };
      return result;
    },
    close: () => {},
  };
  return { side, seen };
}

const request = () => reviewRequest("example.com/v1", [{ apiVersion: "example.com/v1beta1", kind: "CronTab" }]);

describe("the calls doctor makes to time a fill", () => {
  it("are bounded, at most 10 at once, each a review of its own", async () => {
    const { side, seen } = countingSide();
    const measured = await measureFill(side, request, 60_000);
    expect(seen.calls).toBe(FILL_MAX_CALLS);
    expect(seen.mostAtOnce).toBe(FILL_CONCURRENCY);
    expect(seen.uids.size).toBe(FILL_MAX_CALLS);
    expect(measured).toMatchObject({
      ok: true,
      serial: { calls: 20 },
      openingRound: { calls: 10 },
      concurrent: { calls: 50 },
      cut: false,
    });
  });

  it("stop at the first failed call, with its error: no cache would fill", async () => {
    const { side, seen } = countingSide((call) => call === 5);
    expect(await measureFill(side, request, 60_000)).toEqual({ ok: false, error: "call 5 failed" });
    expect(seen.calls).toBe(5);
    const atOnce = countingSide((call) => call === 25);
    expect(await measureFill(atOnce.side, request, 60_000)).toEqual({ ok: false, error: "call 25 failed" });
    // The other callers of the opening round were in flight already; none starts after it.
    expect(atOnce.seen.calls).toBe(31);
  });

  it("start none after the time budget: with none, only the first call is made", async () => {
    const { side, seen } = countingSide();
    const measured = await measureFill(side, request, 0);
    expect(seen.calls).toBe(1);
    expect(measured).toMatchObject({
      ok: true,
      serial: { calls: 0 },
      openingRound: { calls: 0 },
      concurrent: { calls: 0 },
      cut: true,
    });
  });
});
