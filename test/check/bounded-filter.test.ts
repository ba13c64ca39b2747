import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedFilter, CANDIDATES_PER_VALUE, GenerationLimit, placed } from "../../src/check/bounded-filter";

describe("boundedFilter", () => {
  it("gives up after a fixed number of candidates, saying what it could not meet and where", () => {
    let tried = 0;
    const never = boundedFilter(
      fc.integer(),
      () => (tried++, false),
      () => "multipleOf 0.3 between 1 and 2",
    );
    let error: unknown;
    try {
      fc.sample(placed(fc.tuple(placed(never, "spec.inner")), "spec"), { numRuns: 1, seed: 1 });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(GenerationLimit);
    expect((error as GenerationLimit).path).toBe("spec.inner");
    expect((error as Error).message).toBe(
      `no value meets multipleOf 0.3 between 1 and 2 (none of ${CANDIDATES_PER_VALUE} candidates did; the constraints may admit none)`,
    );
    // Counted, not timed: exactly the bound's worth of work.
    expect(tried).toBe(CANDIDATES_PER_VALUE);
  });

  it("keeps what passes, and shrinks within it", () => {
    const even = boundedFilter(
      fc.integer({ min: 0, max: 1000 }),
      (n) => n % 2 === 0,
      () => "even",
    );
    expect(fc.sample(even, { numRuns: 200, seed: 2 }).every((n) => n % 2 === 0)).toBe(true);
    const result = fc.check(
      fc.property(even, (n) => n < 500),
      { seed: 3 },
    );
    expect(result.failed).toBe(true);
    const [shrunk] = result.counterexample!;
    expect(shrunk % 2 === 0 && shrunk >= 500 && shrunk <= 1000).toBe(true);
  });
});
