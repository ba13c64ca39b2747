import { stringify as losslessStringify } from "lossless-json";
import type { DiffReport, Outcome } from "./diff-objects";
import { showValue } from "../../json";

const COLUMNS: Array<[Outcome, string]> = [
  ["same", "same"],
  ["different", "different"],
  ["baseline-failed", "failed in baseline"],
  ["candidate-failed", "failed in candidate"],
  ["both-failed", "failed in both"],
];

/**
 * For a person: objects the same everywhere on one line, the others version by version with the
 * JSON paths that differ (both values) or the failure and which side it is on; then the table.
 */
export function formatDiffText(report: DiffReport): string {
  const lines = [`crdshift diff: candidate ${report.candidate}, baseline ${report.baseline}`, ""];
  for (const object of report.objects) {
    const header = `${object.name} (${object.kind} ${object.apiVersion}, ${object.origin})`;
    if (object.versions.every((entry) => entry.outcome === "same")) {
      lines.push(`${header}: same in ${object.versions.map((entry) => entry.to).join(", ") || "no other version"}`);
      continue;
    }
    lines.push(header);
    for (const entry of object.versions) {
      switch (entry.outcome) {
        case "same":
          lines.push(`  ${entry.to}: same`);
          break;
        case "different":
          lines.push(`  ${entry.to}: different`);
          for (const difference of entry.differences) {
            lines.push(
              `    ${difference.path}: baseline ${shown(difference.baseline)}, candidate ${shown(difference.candidate)}`,
            );
          }
          break;
        case "baseline-failed":
          lines.push(`  ${entry.to}: failed in baseline only: ${entry.baseline}`);
          break;
        case "candidate-failed":
          lines.push(`  ${entry.to}: failed in candidate only: ${entry.candidate}`);
          break;
        case "both-failed":
          lines.push(`  ${entry.to}: failed in both`);
          lines.push(`    baseline:  ${entry.baseline}`);
          lines.push(`    candidate: ${entry.candidate}`);
          break;
      }
    }
  }
  for (const note of report.skipped) lines.push(`skipped ${note}`);
  lines.push("", ...table(report), "");
  const total = report.summary.reduce((sum, row) => sum + Object.values(row.counts).reduce((a, b) => a + b, 0), 0);
  lines.push(
    report.changed === 0
      ? `crdshift diff: no change in ${total} conversions of ${report.objects.length} objects`
      : `crdshift diff: ${report.changed} of ${total} conversions changed (different, or failing on one side only)`,
  );
  return `${lines.join("\n")}\n`;
}

export function formatDiffJson(report: DiffReport): string {
  return `${losslessStringify({ ok: report.changed === 0, ...report }, null, 2)}\n`;
}

function table(report: DiffReport): string[] {
  const header = ["kind", "to", ...COLUMNS.map(([, title]) => title)];
  const rows = report.summary.map((row) => [
    row.kind,
    row.to,
    ...COLUMNS.map(([outcome]) => String(row.counts[outcome])),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  // Names left-aligned, counts right-aligned under their titles.
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function shown(value: unknown): string {
  return showValue(value, DIFF_VALUE_LIMIT);
}

/** A differing value in full unless it is a large object: the report stays readable. */
const DIFF_VALUE_LIMIT = 2_000;
