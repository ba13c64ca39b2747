import type { ObjectsPlaces } from "./objects-one-by-one";

/**
 * How much of a large body's text is converted between two turns of the event loop. A review
 * converts its objects one after another in one go; a large one would hold the loop for seconds,
 * and with it /healthz, the replies of reviews already converted, the reading of those in line,
 * and the garbage collector's incremental work, which runs in the loop's tasks: garbage then
 * piles up, and memory with it.
 */
const UNITS_PER_TURN = 512 * 1024;

/**
 * For a large body's objects (objects-one-by-one.ts): after the object at `index`, a turn of the
 * event loop to wait for once another UNITS_PER_TURN of text have converted, else undefined.
 */
export function turnsAlong({ start, end, commas }: ObjectsPlaces): (index: number) => Promise<void> | undefined {
  let since = start;
  return (index) => {
    const to = index === commas.length ? end : commas[index]!;
    if (to - since < UNITS_PER_TURN) return undefined;
    since = to;
    return nextTurn();
  };
}

/** A turn of the event loop: after the I/O callbacks due (setImmediate) on Node, a zero timer elsewhere. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}
