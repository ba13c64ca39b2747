import { clip } from "../json";
import { celRules, type Crd } from "../kube/crd";
import { kindLabel } from "../kube";
import type { Registry } from "../conversion";
import { checkAgainstCrd, type PairReport } from "../check";
import { coverage, refusalLines } from "./pair-lines";
import { readCrdFile } from "./crd-files";
import type { Output } from "./io";

/**
 * `crdshift check` against CRDs (`--crd FILE`, or those crdshift.config.ts lists): the registry
 * held to each CRD (testing/crd-check.ts), reported per version and pair of versions, with what
 * was accepted on the kind's word (declared refusals, empty-for-absent) and what was not checked
 * (CEL rules). The CRDs read, or undefined if any does not fit (each one's findings printed).
 */
export async function checkCrdFiles(
  registry: Registry,
  files: ReadonlyArray<{ path: string; name: string }>,
  options: { runs?: number; seed?: number },
  io: Output,
): Promise<Array<{ name: string; crds: Crd[] }> | undefined> {
  const read: Array<{ name: string; crds: Crd[] }> = [];
  const failures: string[] = [];
  for (const file of files) {
    const { crds } = readCrdFile(file.path, file.name);
    read.push({ name: file.name, crds });
    for (const crd of crds) {
      io.out(`${kindLabel(crd)} against ${file.name}\n`);
      const report = await checkAgainstCrd(registry, crd, options);
      for (const version of report.versions)
        io.out(`  ${version.version}  ${version.accepted} objects the CRD accepts, accepted\n`);
      // The CEL count only where the target version has rules to be held to.
      const withRules = new Set(crd.versions.filter((v) => celRules(v.schema).length > 0).map((v) => v.name));
      for (const pair of report.pairs) io.out(pairLine(pair, withRules.has(pair.to)));
      // Every CRD is checked, whatever the first one found: one run names every finding.
      if (!report.ok) failures.push(report.failure!);
      if (report.notChecked.length > 0) {
        io.out(
          `  not checked: ${report.notChecked.length} CEL rule(s) (x-kubernetes-validations), results may break them:\n`,
        );
        // The first few, clipped: a big CRD has hundreds (the report's notChecked holds them all).
        for (const rule of report.notChecked.slice(0, SHOWN_RULES))
          io.out(`    ${rule.version} ${rule.path}: ${clip(rule.rule, 160)}\n      ${rule.reason}\n`);
        if (report.notChecked.length > SHOWN_RULES)
          io.out(`    ... and ${report.notChecked.length - SHOWN_RULES} more\n`);
      }
    }
  }
  if (failures.length > 0) {
    io.err(`\ncrdshift check: FAILED\n${failures.join("\n\n")}\n`);
    return undefined;
  }
  io.out("\n");
  return read;
}

const SHOWN_RULES = 5;

function pairLine(pair: PairReport, targetHasRules: boolean): string {
  const lines = [
    `  ${pair.from} -> ${pair.to} -> ${pair.from}  ${coverage(pair)}; the round trips through the apiserver's pruning, each result valid in ${pair.to}`,
  ];
  if (pair.refusedOutsideCrd > 0)
    lines.push(
      `, ${pair.refusedOutsideCrd} refused that break their own CEL rules (the apiserver would not store them)`,
    );
  if (targetHasRules && pair.celChecked < pair.roundTrips)
    lines.push(`; ${pair.celChecked} held to its CEL rules (the rest: partial, or breaking their own)`);
  if (pair.unvalidated > 0)
    lines.push(
      `; ${pair.unvalidated} of them with an input this check could not hold to the schema, results unchecked`,
    );
  let text = `${lines.join("")}\n${refusalLines(pair)}`;
  for (const { path, count } of pair.emptyIsAbsent)
    text += `    accepted ${count} time(s) under emptyIsAbsent: ${path} empty on one side, absent on the other\n`;
  for (const { path, from, to, count } of pair.enumLosses)
    text += `    accepted ${count} time(s) as mapping() declared: ${path} ${JSON.stringify(from)} came back ${JSON.stringify(to)} (an alias, back: "lose")\n`;
  for (const { path, count, why } of pair.gaps)
    text += `    accepted ${count} time(s) under gaps: ${path} missing in ${pair.to}, required there, absent in the ${pair.from} input (${why})\n`;
  return text;
}
