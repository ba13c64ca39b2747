import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FAILURE_CAUSES, REJECTION_REASONS } from "../src/outcome";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());

/**
 * The `code` spans in one column of the README table whose header names that column, every
 * row's (a cell may name several: `a`, `b` / `c`).
 */
function namesInColumn(markdown: string, column: string): string[] {
  const lines = markdown.split("\n");
  const header = lines.findIndex((line) => line.trimStart().startsWith("|") && cellsOf(line).includes(column));
  if (header < 0) throw new Error(`the README has no table with a "${column}" column`);
  const at = cellsOf(lines[header]!).indexOf(column);
  const names: string[] = [];
  // After the header and its |---| line, to the first line that is not a row.
  for (const line of lines.slice(header + 2)) {
    if (!line.trimStart().startsWith("|")) break;
    for (const match of (cellsOf(line)[at] ?? "").matchAll(/`([^`]+)`/g)) names.push(match[1]!);
  }
  return names;
}

describe("the README's tables name the outcomes crdshift reports, each once", () => {
  it("the cause table: every failure cause, and nothing else", () => {
    expect(namesInColumn(README, "cause").sort()).toEqual([...FAILURE_CAUSES].sort());
  });

  it("the status table: every rejection reason, and nothing else", () => {
    expect(namesInColumn(README, "reason").sort()).toEqual([...REJECTION_REASONS].sort());
  });

  it("the vocabulary itself names each outcome once", () => {
    expect(new Set([...FAILURE_CAUSES, ...REJECTION_REASONS]).size).toBe(
      FAILURE_CAUSES.length + REJECTION_REASONS.length,
    );
  });
});
