import type { Measured } from "./load-scenario";
import { median } from "./stats";

/** A scenario's figures on one server over its rounds. */
export interface Summary extends Measured {
  rounds: number;
}

/** The medians of each figure over a server's rounds of one scenario; cold starts and rejections summed. */
export function medianOfRounds(rounds: Measured[]): Summary {
  const first = rounds[0]!;
  const mid = (pick: (m: Measured) => number) => median(rounds.map(pick));
  return {
    ...first,
    rounds: rounds.length,
    wallMs: mid((m) => m.wallMs),
    perSecond: mid((m) => m.perSecond),
    p50Ms: mid((m) => m.p50Ms),
    p99Ms: mid((m) => m.p99Ms),
    callP50Ms: mid((m) => m.callP50Ms),
    callP99Ms: mid((m) => m.callP99Ms),
    coldStarts: rounds.reduce((sum, m) => sum + m.coldStarts, 0),
    serverCpuUs: mid((m) => m.serverCpuUs),
    serverSystemUs: mid((m) => m.serverSystemUs),
    serverCores: mid((m) => m.serverCores),
    clientCpuUs: mid((m) => m.clientCpuUs),
    standInCpuUs: mid((m) => m.standInCpuUs),
    rejected: rounds.reduce((sum, m) => sum + m.rejected, 0),
    reasons: [...new Set(rounds.flatMap((m) => m.reasons))].slice(0, 3),
  };
}

const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "");
const whole = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "");

/** A Markdown table, so a run pastes straight into docs/performance.md. */
export function loadTable(rows: Summary[]): string {
  const head = [
    "server",
    "pattern",
    "at once",
    "wall s",
    "per s",
    "p50 ms",
    "p99 ms",
    "server CPU µs/call",
    "server cores",
    "cold starts: n, p50 / max ms, CPU ms",
    "client CPU µs/call",
  ];
  const cells = rows.map((m) => [
    m.server,
    `${m.scenario}, ${whole(m.units)} ${m.unit}s${m.rounds > 1 ? `, median of ${m.rounds}` : ""}`,
    String(m.concurrency),
    fixed(m.wallMs / 1000, 2),
    `${whole(m.perSecond)} ${m.unit}s`,
    fixed(m.p50Ms, 2),
    fixed(m.p99Ms, 2),
    `${whole(m.serverCpuUs)} (sys ${whole(m.serverSystemUs)})`,
    fixed(m.serverCores, 2),
    m.coldStarts ? `${m.coldStarts}, ${whole(m.coldP50Ms)} / ${whole(m.coldMaxMs)}, ${whole(m.coldCpuMs)}` : "",
    whole(m.clientCpuUs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8, 10]);
  const line = (c: string[]) =>
    `| ${c.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (numeric.has(i) ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(head), rule, ...cells.map(line)].join("\n");
}
