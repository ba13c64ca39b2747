import fc from "fast-check";
import { GenerationLimit } from "./bounded-filter";
import { findingKey, findingRank } from "./findings";

/**
 * The loop under every check that goes on after a failure: values from `arbitrary`, one at a
 * time, each given to `visit`, which throws on a defect. Failures are grouped by their key
 * (findings.ts); the first value of each is remembered by its place in the sequence, so that
 * fast-check can replay it from the seed and shrink it while it keeps failing the same way.
 */
export interface Found<T> {
  key: string;
  rank: number;
  /** The first failure's error, its value, and the value's place in the sequence. */
  error: unknown;
  value: T;
  index: number;
  count: number;
}

export interface SearchOptions {
  seed: number;
  /** At most this many values. */
  limit: number;
  /** Stops early once this says so (asked after each value). */
  enough?: () => boolean;
}

/**
 * Visits values until `enough` or `limit`: the failures by key, in the order found, and how many
 * values were visited. `stopped`: generation gave up (a bounded filter found no value,
 * bounded-filter.ts), so the search ended there; what it found before is kept.
 */
export async function searchSamples<T>(
  arbitrary: fc.Arbitrary<T>,
  options: SearchOptions,
  visit: (value: T) => unknown,
): Promise<{ found: Array<Found<T>>; visited: number; stopped?: GenerationLimit }> {
  const found = new Map<string, Found<T>>();
  let visited = 0;
  const done = new Error("enough");
  let result: fc.RunDetails<[T]>;
  try {
    // fast-check only as the generator: the property never fails but to stop, and does not shrink then.
    result = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        const index = visited++;
        try {
          await visit(value);
        } catch (error) {
          const key = findingKey(error);
          const seen = found.get(key);
          if (seen) seen.count++;
          else found.set(key, { key, rank: findingRank(error), error, value, index, count: 1 });
        }
        if (options.enough?.()) throw done;
      }),
      { seed: options.seed, numRuns: options.limit, endOnFailure: true },
    );
  } catch (error) {
    // A generator's throw leaves fast-check's loop, not the property: constraints no value meets.
    if (error instanceof GenerationLimit) return { found: [...found.values()], visited, stopped: error };
    throw error;
  }
  if (result.failed && result.errorInstance !== done) throw result.errorInstance;
  return { found: [...found.values()], visited };
}

/**
 * The value at `found.index`, shrunk by fast-check while `visit` still fails with the same key,
 * and its error; the value unshrunk if it no longer fails (a converter that answers differently).
 */
export async function shrinkFound<T>(
  arbitrary: fc.Arbitrary<T>,
  seed: number,
  found: Found<T>,
  visit: (value: T) => unknown,
): Promise<{ value: T; error: unknown }> {
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      try {
        await visit(value);
      } catch (error) {
        if (findingKey(error) === found.key) throw error;
      }
    }),
    { seed, path: String(found.index) },
  );
  if (!result.failed || result.counterexample === null) return { value: found.value, error: found.error };
  return { value: result.counterexample[0], error: result.errorInstance };
}

/** Found failures most useful first: by rank, then the most frequent, then the first found. */
export function byUse<T>(found: ReadonlyArray<Found<T>>): Array<Found<T>> {
  return [...found].sort((a, b) => a.rank - b.rank || b.count - a.count || a.index - b.index);
}
