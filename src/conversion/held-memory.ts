/**
 * What a review holds in memory while it is read, decoded, converted and answered, estimated from
 * its body before the tree is built: the request's bytes, its text, the parsed tree, each
 * object's conversion, the reply's text and bytes. Limits that count request bytes alone let a
 * dense body (arrays of `{}`) hold many times what a realistic one of the same size does; these
 * figures count what the bytes become. Measured (peak resident memory of `convertBody`, and of the
 * Node server: `npm run bench:memory`) on Node's 64-bit heap,
 * the larger of the runtimes crdshift serves (workerd compresses pointers), each rounded up:
 * docs/performance.md (Memory a review holds) gives the model and its figures.
 */

/**
 * Per UTF-16 unit of the body: the request's bytes (as read, and gathered in one piece), its
 * text, and the reply's bytes (one byte a character: an apiserver writes ASCII), printed as the
 * objects convert (printed-reply.ts).
 */
export const HELD_PER_CHAR = 4;
/** Per object or array in the body: its node in the parsed tree, and the copies a conversion makes of it. */
export const HELD_PER_CONTAINER = 128;
/** Per comma or colon (about one per value): its slot in an object or array, in each tree that holds it. */
export const HELD_PER_SEPARATOR = 32;

/** What a scanned body holds: its length and the shape the scan counted (json/body-scan.ts). */
export function heldByShape(length: number, shape: { containers: number; separators: number }): number {
  return length * HELD_PER_CHAR + shape.containers * HELD_PER_CONTAINER + shape.separators * HELD_PER_SEPARATOR;
}

/**
 * The most a body of `length` units can hold, whatever its shape: the densest JSON spends three
 * characters on an object or array and its comma (`{},`), or two on a value and its comma.
 */
export function heldAtMost(length: number): number {
  const perChar = Math.max(
    (HELD_PER_CONTAINER + HELD_PER_SEPARATOR) / 3,
    HELD_PER_SEPARATOR / 2,
    HELD_PER_CONTAINER / 2,
  );
  return Math.ceil(length * (HELD_PER_CHAR + perChar));
}

/** The least a body of `length` units holds, whatever its shape: its text, read and answered. */
export function heldAtLeast(length: number): number {
  return length * HELD_PER_CHAR;
}
