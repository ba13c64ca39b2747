/** One line of the bench's table: a figure, and the target it is held to if any. */
export interface Row {
  measure: string;
  figure: string;
  target: string;
  /** undefined: a figure without a target (context for the others). */
  ok?: boolean;
}

export const times = (n: number) => `${n.toFixed(2)}×`;
export const ms = (n: number, digits = 1) => `${n.toFixed(digits)} ms`;
export const us = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} µs`;
export const count = (n: number) => Math.round(n).toLocaleString("en-US");
export const mega = (n: number) => `${(n / 1e6).toFixed(1)} M`;
export const kilo = (n: number) => `${(n / 1e3).toFixed(1)} k`;

/** A Markdown table, so a run pastes straight into docs and issues; no verdict column if no row has one. */
export function table(rows: Row[], head = ["measure", "figure", "target", "verdict"]): string {
  const verdicts = rows.some((r) => r.ok !== undefined);
  const cells = rows.map((r) => {
    const row = [r.measure, r.figure, r.target];
    return verdicts ? [...row, r.ok === undefined ? "" : r.ok ? "ok" : "NOT OK"] : row;
  });
  const names = head.slice(0, cells[0]?.length ?? head.length);
  const widths = names.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(names), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...cells.map(line)].join("\n");
}
