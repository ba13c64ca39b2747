import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FAILURE_CAUSES, FAILURE_CODES, REJECTION_REASONS, REJECTION_STATUS } from "../src/outcome";

/** docs/metrics.md: How a review ends, the cause table and the status table. */
const METRICS_DOC = readFileSync(new URL("../docs/metrics.md", import.meta.url), "utf8");

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());

/** The rows of the first table whose header names `column`, each as its cells by header. */
function rowsOf(markdown: string, column: string): Array<Record<string, string>> {
  const lines = markdown.split("\n");
  const header = lines.findIndex((line) => line.trimStart().startsWith("|") && cellsOf(line).includes(column));
  if (header < 0) throw new Error(`the document has no table with a "${column}" column`);
  const names = cellsOf(lines[header]!);
  const rows: Array<Record<string, string>> = [];
  // After the header and its |---| line, to the first line that is not a row.
  for (const line of lines.slice(header + 2)) {
    if (!line.trimStart().startsWith("|")) break;
    const cells = cellsOf(line);
    rows.push(Object.fromEntries(names.map((name, i) => [name, cells[i] ?? ""])));
  }
  return rows;
}

/** The `code` spans of a cell (a cell may name several: `a`, `b` / `c`). */
const spans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** The `code` spans in one column of the first table whose header names that column, every row's. */
function namesInColumn(markdown: string, column: string): string[] {
  return rowsOf(markdown, column).flatMap((row) => spans(row[column]!));
}

describe("docs/metrics.md's tables name the outcomes crdshift reports, each once", () => {
  it("the cause table: every failure cause, and nothing else", () => {
    expect(namesInColumn(METRICS_DOC, "cause").sort()).toEqual([...FAILURE_CAUSES].sort());
  });

  it("the status table: every rejection reason, and nothing else", () => {
    expect(namesInColumn(METRICS_DOC, "reason").sort()).toEqual([...REJECTION_REASONS].sort());
  });

  it("the cause table: each cause's codes in its row, as outcome.ts files them", () => {
    const filed = Object.entries(FAILURE_CODES).map(([code, cause]) => `${cause} ${code}`);
    const listed = rowsOf(METRICS_DOC, "cause").flatMap((row) =>
      spans(row.code!).map((code) => `${spans(row.cause!)[0]} ${code}`),
    );
    expect(listed.sort()).toEqual(filed.sort());
  });

  it("the status table: each reason under the status crdshift answers it with", () => {
    // A row of several statuses pairs them with its reasons in order (`405 / 413` with `a` / `b`).
    const listed = rowsOf(METRICS_DOC, "reason").flatMap((row) => {
      const statuses = row.status!.split("/").map((status) => Number(status.trim()));
      return row.reason!.split("/").flatMap((group, i) => spans(group).map((reason) => `${reason} ${statuses[i]}`));
    });
    const answered = Object.entries(REJECTION_STATUS).map(([reason, status]) => `${reason} ${status}`);
    expect(listed.sort()).toEqual(answered.sort());
  });

  it("the vocabulary itself names each outcome once", () => {
    expect(new Set([...FAILURE_CAUSES, ...REJECTION_REASONS]).size).toBe(
      FAILURE_CAUSES.length + REJECTION_REASONS.length,
    );
  });
});
