import { terminalText } from "../terminal-text";
import type { DoctorReport } from "./doctor-checks";
import type { Finding } from "./finding";

const LABEL = { error: "ERROR  ", warning: "warning", info: "info   " } as const;

/** The report for a person: per CRD, errors first, each with its fix; a count at the end. */
export function formatDoctorText(report: DoctorReport): string {
  const lines: string[] = [];
  for (const crd of printable(report).crds) {
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
  return `${JSON.stringify({ ok: report.errors === 0, ...printable(report) }, null, 2)}\n`;
}

/**
 * The report as it may be printed: findings quote what the webhook replied (a Failure's message,
 * a uid), and the CRD's names come from a file, so each text is clipped and its control
 * characters escaped, in JSON as in text (JSON leaves C1 controls and bidi overrides raw).
 */
function printable(report: DoctorReport): DoctorReport {
  const finding = ({ severity, code, message, fix, figures }: Finding): Finding => ({
    severity,
    code,
    message: terminalText(message),
    ...(fix !== undefined ? { fix: terminalText(fix) } : {}),
    ...(figures !== undefined ? { figures } : {}),
  });
  return {
    ...report,
    crds: report.crds.map(({ crd, kind, probed, findings }) => ({
      crd: terminalText(crd),
      kind: terminalText(kind),
      ...(probed !== undefined ? { probed: terminalText(probed) } : {}),
      findings: findings.map(finding),
    })),
  };
}
