import type { Crd } from "../kube/crd";
import type { Registry } from "../conversion";
import { checkKinds, type PairReport } from "../check";
import type { Output } from "./io";
import { coverage, refusalLines } from "./pair-lines";

/**
 * `crdshift check`'s round trips: every kind's versions reachable (defineKind already proved it)
 * and round trips from its zod schemas. `crds` names the CRDs already checked (check-crd.ts);
 * with none, it says what it could not see, rather than call the converters right.
 */
export async function checkRegistry(
  registry: Registry,
  options: { runs?: number; seed?: number; crds?: ReadonlyArray<{ name: string; crds: readonly Crd[] }> },
  io: Output,
): Promise<boolean> {
  const files = options.crds ?? [];
  const reports = await checkKinds(registry.kinds, { ...options, crds: files.flatMap((file) => file.crds) });
  for (const report of reports) {
    io.out(`${report.kind}\n`);
    for (const pair of report.pairs) io.out(pairLine(pair));
  }
  const failed = reports.filter((report) => !report.ok);
  if (failed.length > 0) {
    io.err(`\ncrdshift check: FAILED\n${failed.map((report) => report.failure).join("\n\n")}\n`);
    return false;
  }
  io.out(
    files.length > 0
      ? `\nok: ${reports.length} kind(s) against ${files.map((file) => file.name).join(", ")}: every result valid in its target version and kept through the apiserver's pruning; every version reaches every other one, and round trips from the zod schemas keep every field\n`
      : `\nok: every version of ${reports.length} kind(s) reaches every other one, and round trips from the zod schemas keep every field.\n` +
          `Not checked, without the CRDs: the apiserver's pruning, and the CRD's enums, formats, patterns and bounds on converted objects. ` +
          `List the CRDs in crdshift.config.ts (export const crds = ["crds/my-crd.yaml"]) or pass --crd FILE.\n`,
  );
  return true;
}

function pairLine(pair: PairReport): string {
  const outside =
    pair.refusedOutsideCrd > 0
      ? `, ${pair.refusedOutsideCrd} refused that the CRD would not accept (the zod schema is looser)`
      : "";
  let text = `  ${pair.from} -> ${pair.to} -> ${pair.from}  ${coverage(pair)}${outside}\n${refusalLines(pair)}`;
  for (const { path, count } of pair.emptyIsAbsent)
    text += `    accepted ${count} time(s) under emptyIsAbsent: ${path} empty on one side, absent on the other\n`;
  for (const { path, from, to, count } of pair.enumLosses)
    text += `    accepted ${count} time(s) as mapping() declared: ${path} ${JSON.stringify(from)} came back ${JSON.stringify(to)} (an alias, back: "lose")\n`;
  return text;
}
