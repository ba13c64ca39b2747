import type { Equivalences } from "./round-trip-comparison";

/**
 * A kind's declared gaps (defineKind's `gaps`) as the check of a result against its target's
 * CRD schema asks them: may this required field be missing? Yes only where the kind declared
 * the path for this pair and the input lacks the same field too: a faithful converter leaves an
 * absent field absent. A field the input holds and the result lacks was lost, declared or not.
 */
export function mayLackFor(
  equivalences: Equivalences,
  from: string,
  to: string,
  input: unknown,
): ((path: string) => boolean) | undefined {
  const declared = equivalences.gaps?.get(`${from}->${to}`);
  if (declared === undefined) return undefined;
  return (path) => {
    const general = path.replace(/\[\d+\]/g, "[]");
    if (!declared.has(general) || presentAt(input, path)) return false;
    equivalences.acceptedGaps?.set(general, (equivalences.acceptedGaps.get(general) ?? 0) + 1);
    return true;
  };
}

/** Whether a value sits at a printed path of plain names and indices (`spec.rules[2].type`). */
function presentAt(value: unknown, path: string): boolean {
  let here = value;
  for (const [, name, index] of path.matchAll(/\.?([^.[\]]+)|\[(\d+)\]/g)) {
    const key = name ?? index!;
    if (typeof here !== "object" || here === null || !Object.hasOwn(here, key)) return false;
    here = (here as Record<string, unknown>)[key];
  }
  return true;
}
