/**
 * How many cases a property test runs. `npm test` runs each the number it is written with;
 * `npm run test:unit` (CRDSHIFT_TESTS=unit) a fifth of it, at least 20, for a quick loop while
 * changing src/. Only for properties that pass on correct code whatever the count: a test that
 * must find a planted bug keeps its count, or a shorter run could miss it.
 */
const UNIT_SHARE = 5;
const UNIT_FLOOR = 20;

export function runs(full: number): number {
  if (process.env.CRDSHIFT_TESTS !== "unit") return full;
  return Math.min(full, Math.max(UNIT_FLOOR, Math.ceil(full / UNIT_SHARE)));
}
