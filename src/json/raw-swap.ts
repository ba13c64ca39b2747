/**
 * JSON.stringify of a small value holding bigints with no prototype touched: each `bigint` is
 * swapped in its place for `JSON.rawJSON` of its digits, the value printed plainly, and every
 * bigint put back before the text is returned. Setting `BigInt.prototype.toJSON` for the call
 * and deleting it again (bigints.ts) costs more than walking a reply of one object, and
 * JSON.stringify slows down once it has called a toJSON; on a large reply the walk costs more
 * than both, so it gives up after `VALUES_WALKED` values.
 *
 * The only code JSON.stringify runs is a `toJSON` (own or inherited, a Date's among them) and a
 * getter: the walk gives up on any object with a toJSON, which could see a swapped value, and
 * swaps a bigint only where it is a writable data property. A class instance is walked as
 * JSON.stringify reads it, its own enumerable names; a boxed bigint is not swapped, and
 * JSON.stringify then throws on it. Where the walk gives up or JSON.stringify throws (also for
 * a getter returning a fresh object that holds a bigint), the answer is undefined, with
 * everything put back: the caller's general path decides. A getter in the value is read once
 * by the walk and once by JSON.stringify.
 */
export function stringifySwapped(value: unknown, rawJson: (text: string) => unknown): string | undefined {
  if (typeof value === "bigint") return bigintDigits.call(value);
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  // Holder, name and bigint of each swap, flat: undone last to first.
  const swaps: unknown[] = [];
  let text: string | undefined;
  try {
    if (swapAll(value, rawJson, swaps)) text = JSON.stringify(value);
  } catch {
    // A bigint JSON.stringify met all the same, or a getter or toJSON that throws: the general path says.
  } finally {
    for (let i = swaps.length - 3; i >= 0; i -= 3)
      (swaps[i] as Record<string | number, unknown>)[swaps[i + 1] as string] = swaps[i + 2];
  }
  return text;
}

/** Values walked before the walk gives up: a reply of one or two objects as the apiserver sends them. */
const VALUES_WALKED = 400;

const bigintDigits = BigInt.prototype.toString as (this: unknown) => string;

/** Swaps every bigint under `root`, noting each in `swaps`; false where the walk gives up. */
function swapAll(root: object, rawJson: (text: string) => unknown, swaps: unknown[]): boolean {
  let budget = VALUES_WALKED;
  const pending: object[] = [root];
  while (pending.length > 0) {
    const holder = pending.pop() as Record<string, unknown>;
    if ("toJSON" in holder) return false;
    if (Array.isArray(holder)) {
      budget -= holder.length;
      if (budget < 0) return false;
      for (let i = 0; i < holder.length; i++) {
        const item: unknown = holder[i];
        if (typeof item === "object" && item !== null) pending.push(item);
        else if (typeof item === "bigint" && !swap(holder, i, item, rawJson, swaps)) return false;
      }
    } else {
      const keys = Object.keys(holder);
      budget -= keys.length;
      if (budget < 0) return false;
      for (const key of keys) {
        const item = holder[key];
        if (typeof item === "object" && item !== null) pending.push(item);
        else if (typeof item === "bigint" && !swap(holder, key, item, rawJson, swaps)) return false;
      }
    }
  }
  return true;
}

function swap(
  holder: Record<string | number, unknown>,
  key: string | number,
  item: bigint,
  rawJson: (text: string) => unknown,
  swaps: unknown[],
): boolean {
  const own = Object.getOwnPropertyDescriptor(holder, key);
  if (!own || !own.writable) return false; // an accessor (no `writable`), or read-only
  swaps.push(holder, key, item);
  holder[key] = rawJson(bigintDigits.call(item));
  return true;
}
