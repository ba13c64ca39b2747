import fc from "fast-check";

/**
 * Generation that gives up. fast-check's `filter` draws until a value passes, so constraints no
 * value meets (`pattern: ^a$` with `minLength: 2`) make it draw forever. These filters draw a
 * bounded number of candidates for each value and then throw a GenerationLimit that says what
 * could not be met, which the check reports as a finding instead of hanging.
 */
export class GenerationLimit extends Error {
  override name = "GenerationLimit";
  /** Where in the object, once known (crd-arbitrary.ts names the place). */
  path: string | undefined;
}

/** Candidates drawn for one value before giving up: a filter that keeps one in 1,000 still works. */
export const CANDIDATES_PER_VALUE = 2000;

class BoundedFilter<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly source: fc.Arbitrary<T>,
    private readonly keep: (value: T) => boolean,
    private readonly unmet: () => string,
  ) {
    super();
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    for (let tries = 0; tries < CANDIDATES_PER_VALUE; tries++) {
      const candidate = this.source.generate(random, biasFactor);
      if (this.keep(candidate.value_)) return candidate;
    }
    throw new GenerationLimit(
      `no value meets ${this.unmet()} (none of ${CANDIDATES_PER_VALUE} candidates did; the constraints may admit none)`,
    );
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.source.canShrinkWithoutContext(value) && this.keep(value);
  }

  // Shrinking only narrows a value already found, so its candidates are not bounded here.
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.source.shrink(value, context).filter((candidate) => this.keep(candidate.value_));
  }
}

/** `arbitrary.filter(keep)`, bounded; `unmet` says what the filter asks, for the finding. */
export function boundedFilter<T>(arbitrary: fc.Arbitrary<T>, keep: (value: T) => boolean, unmet: () => string) {
  return new BoundedFilter(arbitrary, keep, unmet);
}

class Placed<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly source: fc.Arbitrary<T>,
    private readonly path: string,
  ) {
    super();
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    try {
      return this.source.generate(random, biasFactor);
    } catch (error) {
      // The innermost place names it: an outer one only fills a path still missing.
      if (error instanceof GenerationLimit && error.path === undefined) error.path = this.path;
      throw error;
    }
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.source.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.source.shrink(value, context);
  }
}

/** The same values; a GenerationLimit from inside names `path` as the place. */
export function placed<T>(arbitrary: fc.Arbitrary<T>, path: string): fc.Arbitrary<T> {
  return new Placed(arbitrary, path);
}
