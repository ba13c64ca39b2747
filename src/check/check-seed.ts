/**
 * The seed of one check, drawn when not given: every pair of the check uses it, so that the
 * seed a report prints replays all of its findings.
 */
export function checkSeed(seed: number | undefined): number {
  return seed ?? Math.floor(Math.random() * 0x7fffffff);
}
