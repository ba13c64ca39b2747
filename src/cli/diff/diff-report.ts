import { stringify as losslessStringify } from "lossless-json";
import type { Comparison } from "../../compare";
import type { DiffReport, Outcome } from "./diff-objects";
import { showValue } from "../../json";
import { terminalText } from "../terminal-text";

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
  const text = terminalText;
  const lines = [`crdshift diff: candidate ${text(report.candidate)}, baseline ${text(report.baseline)}`, ""];
  for (const object of report.objects) {
    const header = text(`${object.name} (${object.kind} ${object.apiVersion}, ${object.origin})`);
    if (object.versions.every((entry) => entry.outcome === "same")) {
      lines.push(
        `${header}: same in ${text(object.versions.map((entry) => entry.to).join(", ")) || "no other version"}`,
      );
      continue;
    }
    lines.push(header);
    for (const entry of printable(object.versions)) {
      const to = text(entry.to);
      switch (entry.outcome) {
        case "same":
          lines.push(`  ${to}: same`);
          break;
        case "different":
          lines.push(`  ${to}: different`);
          for (const difference of entry.differences) {
            lines.push(
              `    ${text(difference.path)}: baseline ${shown(difference.baseline)}, candidate ${shown(difference.candidate)}`,
            );
          }
          break;
        case "baseline-failed":
          lines.push(`  ${to}: failed in baseline only: ${entry.baseline}`);
          break;
        case "candidate-failed":
          lines.push(`  ${to}: failed in candidate only: ${entry.candidate}`);
          break;
        case "both-failed":
          lines.push(`  ${to}: failed in both`);
          lines.push(`    baseline:  ${entry.baseline}`);
          lines.push(`    candidate: ${entry.candidate}`);
          break;
      }
    }
  }
  for (const note of report.skipped) lines.push(`skipped ${text(note)}`);
  lines.push("", ...table(report), "");
  const total = report.summary.reduce((sum, row) => sum + Object.values(row.counts).reduce((a, b) => a + b, 0), 0);
  lines.push(
    report.changed === 0
      ? `crdshift diff: no change in ${total} conversions of ${report.objects.length} objects`
      : `crdshift diff: ${report.changed} of ${total} conversions changed (different, or failing on one side only)`,
  );
  return `${lines.join("\n")}\n`;
}

/** The values that differ are data, given exactly; the messages are text, printed as for a person. */
export function formatDiffJson(report: DiffReport): string {
  const objects = report.objects.map((object) => ({ ...object, versions: printable(object.versions) }));
  return `${losslessStringify({ ok: report.changed === 0, ...report, objects }, null, 2)}\n`;
}

/**
 * A failure's message as it may be printed: it quotes the webhook's reply (a Failure's message,
 * a uid), so it is clipped and its control characters escaped.
 */
function printable<T extends Comparison>(versions: T[]): T[] {
  return versions.map((entry) => ({
    ...entry,
    ...("baseline" in entry ? { baseline: terminalText(entry.baseline) } : {}),
    ...("candidate" in entry ? { candidate: terminalText(entry.candidate) } : {}),
  }));
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

/** Clipped by showValue, then escaped (JSON leaves C1 controls and bidi overrides raw). */
function shown(value: unknown): string {
  return terminalText(showValue(value, DIFF_VALUE_LIMIT), Number.POSITIVE_INFINITY);
}

/** A differing value in full unless it is a large object: the report stays readable. */
const DIFF_VALUE_LIMIT = 2_000;
