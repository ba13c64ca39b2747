import type { DoctorReport } from "./doctor-checks";

const LABEL = { error: "ERROR  ", warning: "warning", info: "info   " } as const;

/** The report for a person: per CRD, errors first, each with its fix; a count at the end. */
export function formatDoctorText(report: DoctorReport): string {
  const lines: string[] = [];
  for (const crd of report.crds) {
    lines.push(`${crd.crd} (${crd.kind}${crd.probed ? `, probed ${crd.probed}` : ", not probed"})`);
    const order = { error: 0, warning: 1, info: 2 };
    const findings = [...crd.findings].sort((a, b) => order[a.severity] - order[b.severity]);
    for (const finding of findings) {
      lines.push(`  ${LABEL[finding.severity]}  ${finding.code}: ${finding.message}`);
      if (finding.fix) lines.push(`           fix: ${finding.fix}`);
    }
    lines.push("");
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  lines.push(`crdshift doctor: ${plural(report.errors, "error")}, ${plural(report.warnings, "warning")}`);
  return `${lines.join("\n")}\n`;
}

export function formatDoctorJson(report: DoctorReport): string {
  return `${JSON.stringify({ ok: report.errors === 0, ...report }, null, 2)}\n`;
}
