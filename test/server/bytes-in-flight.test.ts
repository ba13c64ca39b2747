import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBytesInFlight, type Lease } from "../../src/server/bytes-in-flight";
import { runs } from "../property-runs";

describe("bytes in flight", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("lets requests in while their bytes fit under the cap, and counts them back out", () => {
    const inFlight = createBytesInFlight({ capBytes: 100 });
    const a = inFlight.tryReserve(60)!;
    const b = inFlight.tryReserve(40)!;
    expect(inFlight.heldBytes).toBe(100);
    expect(inFlight.tryReserve(1)).toBeUndefined();
    a.release();
    a.release();
    expect(inFlight.heldBytes).toBe(40);
    b.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("lets waiting requests in first come, first served: none overtakes a larger one ahead", async () => {
    const inFlight = createBytesInFlight({ capBytes: 100 });
    const first = inFlight.tryReserve(70)!;
    const order: string[] = [];
    const big = inFlight.reserve(90).then((lease) => (order.push("big"), lease));
    const small = inFlight.reserve(10).then((lease) => (order.push("small"), lease));
    // 10 bytes would fit now, but the 90 are ahead of them.
    expect(inFlight.tryReserve(10)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(order).toEqual([]);
    first.release();
    const [bigLease, smallLease] = await Promise.all([big, small]);
    expect(order).toEqual(["big", "small"]);
    expect(inFlight.heldBytes).toBe(100);
    bigLease!.release();
    smallLease!.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("answers a request that waited its time with nothing, and lets those behind it in", async () => {
    const inFlight = createBytesInFlight({ capBytes: 100, maxWaitMs: 1000 });
    const held = inFlight.tryReserve(50)!;
    const big = inFlight.reserve(80);
    await vi.advanceTimersByTimeAsync(500);
    const small = inFlight.reserve(30);
    await vi.advanceTimersByTimeAsync(500);
    expect(await big).toBeUndefined();
    // The 80 gave up: the 30 behind them fit beside the 50 held.
    const smallLease = await small;
    expect(smallLease).toBeDefined();
    expect(inFlight.heldBytes).toBe(80);
    expect(inFlight.waitingCount).toBe(0);
    held.release();
    smallLease!.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("answers at once when the line is full, and a request larger than the cap, with nothing", async () => {
    const inFlight = createBytesInFlight({ capBytes: 100, maxWaiting: 2 });
    const held = inFlight.tryReserve(100)!;
    const waiting = [inFlight.reserve(10), inFlight.reserve(10)];
    expect(await inFlight.reserve(10)).toBeUndefined();
    expect(await inFlight.reserve(101)).toBeUndefined();
    held.release();
    for (const lease of await Promise.all(waiting)) lease!.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("resizes a lease to what its body turned out to hold: fewer gives room back and lets waiting requests in, more only if it fits", async () => {
    const inFlight = createBytesInFlight({ capBytes: 100 });
    const lease = inFlight.tryReserve(60)!;
    const waiting = inFlight.reserve(50);
    expect(lease.resize(30)).toBe(true);
    const admitted = await waiting;
    expect(admitted).toBeDefined();
    expect(inFlight.heldBytes).toBe(80);
    expect(lease.resize(51)).toBe(false);
    expect(inFlight.heldBytes).toBe(80);
    expect(lease.resize(50)).toBe(true);
    expect(inFlight.heldBytes).toBe(100);
    lease.release();
    expect(lease.resize(10)).toBe(false);
    admitted!.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("lets one lease refused a resize wait for its room, ahead of the line; a second is refused at once", async () => {
    const inFlight = createBytesInFlight({ capBytes: 100 });
    // Two admitted on their length, each turning out to hold more than half the cap.
    const a = inFlight.tryReserve(40)!;
    const b = inFlight.tryReserve(40)!;
    expect(await a.waitForRefused()).toBe(false); // nothing refused yet
    expect(a.resize(70)).toBe(false);
    expect(b.resize(70)).toBe(false);
    let grown: boolean | undefined;
    const waiting = a.waitForRefused().then((answer) => (grown = answer));
    // Only one waits: the other is answered at once (its request then gets 429, and lets go).
    expect(await b.waitForRefused()).toBe(false);
    // The room a's wait needs is not given to anyone in line meanwhile.
    expect(inFlight.tryReserve(10)).toBeUndefined();
    let behind: Lease | undefined;
    const inLine = inFlight.reserve(10).then((lease) => (behind = lease));
    await vi.advanceTimersByTimeAsync(1);
    expect(grown).toBeUndefined();
    b.release();
    await Promise.all([waiting, inLine]);
    expect(grown).toBe(true);
    expect(behind).toBeDefined();
    // a's 70, then the 10 in line beside them.
    expect(inFlight.heldBytes).toBe(80);
    a.release();
    behind!.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("gives a lease waiting to grow nothing after the wait, its bytes as they were, and lets the line in", async () => {
    const inFlight = createBytesInFlight({ capBytes: 100, maxWaitMs: 1000 });
    const a = inFlight.tryReserve(50)!;
    const other = inFlight.tryReserve(40)!;
    expect(a.resize(90)).toBe(false);
    const waiting = a.waitForRefused();
    const inLine = inFlight.reserve(5);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await waiting).toBe(false);
    expect(await inLine).toBeDefined();
    expect(inFlight.heldBytes).toBe(95);
    // A refusal is waited for once: asked again, nothing.
    expect(await a.waitForRefused()).toBe(false);
    // Past the cap is never waited for.
    expect(a.resize(101)).toBe(false);
    expect(await a.waitForRefused()).toBe(false);
    other.release();
    a.release();
  });

  it("lets one body counted as the least it holds be read at a time: the next once the first is sized or gone", async () => {
    const inFlight = createBytesInFlight({ capBytes: 100 });
    const a = inFlight.tryReserve(10, true)!;
    expect(a).toBeDefined();
    // Room enough, but another unsized body waits; a body of known size does not.
    expect(inFlight.tryReserve(10, true)).toBeUndefined();
    const small = inFlight.tryReserve(5)!;
    expect(small).toBeDefined();
    small.release();
    let b: Lease | undefined;
    const second = inFlight.reserve(10, true).then((lease) => (b = lease));
    await vi.advanceTimersByTimeAsync(1);
    expect(b).toBeUndefined();
    expect(a.resize(60)).toBe(true);
    await second;
    expect(b).toBeDefined();
    expect(inFlight.heldBytes).toBe(70);
    // b refused a resize and waiting for room: still the one unsized, so no third is read.
    expect(b!.resize(50)).toBe(false);
    const grown = b!.waitForRefused();
    expect(inFlight.tryReserve(1, true)).toBeUndefined();
    a.release();
    expect(await grown).toBe(true);
    expect(inFlight.tryReserve(1, true)).toBeDefined();
  });

  it("counts a streamed body as it grows, refusing the chunk that would pass the cap", () => {
    const inFlight = createBytesInFlight({ capBytes: 100 });
    const other = inFlight.tryReserve(30)!;
    const streamed = inFlight.tryReserve(0)!;
    expect(streamed.grow(50)).toBe(true);
    expect(streamed.grow(21)).toBe(false);
    expect(inFlight.heldBytes).toBe(80);
    streamed.release();
    expect(streamed.grow(1)).toBe(false);
    other.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("never holds more than the cap, and holds nothing once every request has ended (any order)", async () => {
    type Step =
      | { kind: "reserve"; bytes: number }
      | { kind: "grow"; at: number; bytes: number }
      | { kind: "end"; at: number }
      | { kind: "wait"; ms: number };
    const step = fc.oneof(
      fc.record({ kind: fc.constant("reserve" as const), bytes: fc.integer({ min: 0, max: 120 }) }),
      fc.record({ kind: fc.constant("grow" as const), at: fc.nat(), bytes: fc.integer({ min: 0, max: 60 }) }),
      fc.record({ kind: fc.constant("end" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 400 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps: Step[]) => {
        const inFlight = createBytesInFlight({ capBytes: 100, maxWaitMs: 300, maxWaiting: 4 });
        const leases: Lease[] = [];
        const pending: Array<Promise<void>> = [];
        for (const s of steps) {
          if (s.kind === "reserve") pending.push(inFlight.reserve(s.bytes).then((l) => void (l && leases.push(l))));
          else if (s.kind === "grow" && leases.length) leases[s.at % leases.length]!.grow(s.bytes);
          else if (s.kind === "end" && leases.length) leases.splice(s.at % leases.length, 1)[0]!.release();
          else if (s.kind === "wait") await vi.advanceTimersByTimeAsync(s.ms);
          expect(inFlight.heldBytes).toBeLessThanOrEqual(100);
          expect(inFlight.heldBytes).toBeGreaterThanOrEqual(0);
        }
        // Every request ends: those holding release, those waiting are let in or time out.
        while (leases.length || inFlight.waitingCount) {
          leases.pop()?.release();
          await vi.advanceTimersByTimeAsync(leases.length ? 0 : 300);
        }
        await Promise.all(pending);
        while (leases.length) leases.pop()!.release();
        expect(inFlight.heldBytes).toBe(0);
      }),
      { numRuns: runs(200) },
    );
  });
});
