import type { Registry } from "../registry";
import { checkKinds } from "../testing/round-trip";
import type { Output } from "./io";

/** `crdshift check`: every kind's versions reachable (defineKind already proved it) and round trips. */
export async function checkRegistry(
  registry: Registry,
  options: { runs?: number; seed?: number },
  io: Output,
): Promise<boolean> {
  const reports = await checkKinds(registry.kinds, options);
  for (const report of reports) {
    io.out(`${report.kind}\n`);
    for (const pair of report.pairs) {
      const example = pair.sampleRefusal === undefined ? "" : `, e.g. ${JSON.stringify(pair.sampleRefusal)}`;
      io.out(
        `  ${pair.from} -> ${pair.to} -> ${pair.from}  ${pair.roundTrips} round trips, ${pair.refused} refused by the converter${example}\n`,
      );
    }
    if (!report.ok) {
      io.err(`\ncrdshift check: FAILED\n${report.failure}\n`);
      return false;
    }
  }
  io.out(
    `\nok: every version of ${reports.length} kind(s) reaches every other one, and round trips keep every field\n`,
  );
  return true;
}
