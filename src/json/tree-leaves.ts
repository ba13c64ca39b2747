import { objectPrototypeIsPolluted } from "./polluted-prototype";

/**
 * Puts values back into the leaves of a tree JSON.parse made: the numbers it rounded
 * (rounded.ts) or the marker strings that stood for numbers (numbers.ts).
 * `replace` is asked about each leaf of type `leaf` and answers what goes in its place,
 * undefined to keep it, or null to give up (the answer is then undefined). The walk is
 * iterative (the tree may be as deep as the text), reads own keys only (Object.prototype may
 * hold enumerable names, even an object holding itself), and stops once `expected` leaves are
 * replaced: each was spelled once in the text, and one under a repeated key is not in the tree.
 */
export function replaceLeaves(
  root: unknown,
  leaf: "number" | "string",
  replace: (item: never) => unknown,
  expected: number,
): { value: unknown; replaced: number } | undefined {
  const answer = replace as (item: unknown) => unknown;
  if (typeof root === leaf) {
    const swapped = answer(root);
    if (swapped === null) return undefined;
    return swapped === undefined ? { value: root, replaced: 0 } : { value: swapped, replaced: 1 };
  }
  if (typeof root !== "object" || root === null) return { value: root, replaced: 0 };
  let replaced = 0;
  const inheritedKeys = objectPrototypeIsPolluted();
  const pending: object[] = [root];
  while (pending.length > 0 && replaced < expected) {
    const holder = pending.pop() as Record<string, unknown>;
    if (Array.isArray(holder)) {
      // Last to first onto the stack: the first of a review's objects is looked at first.
      for (let i = holder.length - 1; i >= 0; i--) {
        const item: unknown = holder[i];
        if (typeof item === "object" && item !== null) pending.push(item);
        else if (typeof item === leaf) {
          const swapped = answer(item);
          if (swapped === undefined) continue;
          if (swapped === null) return undefined;
          holder[i] = swapped;
          replaced++;
        }
      }
      continue;
    }
    // for-in needs no array of keys per object, which is much of a walk's time.
    for (const key in holder) {
      if (inheritedKeys && !Object.hasOwn(holder, key)) continue;
      const item = holder[key];
      if (typeof item === "object" && item !== null) pending.push(item);
      else if (typeof item === leaf) {
        const swapped = answer(item);
        if (swapped === undefined) continue;
        if (swapped === null) return undefined;
        replaced++;
        // An own `__proto__` key (JSON.parse makes one as data) is set as data: no prototype changes.
        holder[key] = swapped;
      }
    }
  }
  return { value: root, replaced };
}
