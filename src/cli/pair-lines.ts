import type { PairReport } from "../check";
import { terminalText } from "./terminal-text";

/** What `crdshift check` prints of every pair, with or without a CRD: its coverage and its refusals. */

/** How many round trips of how many generated objects, and how many refused as declared. */
export function coverage(pair: PairReport): string {
  const refused = pair.refused > 0 ? `, ${pair.refused} refused as declared` : "";
  return `${pair.roundTrips} round trips of ${pair.generated} objects generated${refused}`;
}

/**
 * A line per declared reason the converters refused for: how many, why, and an example (a
 * converter's message, escaped as terminal-text.ts escapes what the CLI prints from outside).
 */
export function refusalLines(pair: PairReport): string {
  return pair.refusedBy
    .map(
      ({ reason, why, count, example }) =>
        `    refused ${count} for "${reason}" (${terminalText(why)}), e.g. ${terminalText(JSON.stringify(example))}\n`,
    )
    .join("");
}
