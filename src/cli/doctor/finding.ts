type Severity = "error" | "warning" | "info";

/**
 * One thing doctor found. `error`: the apiserver would fail, refuse the CRD, or lose data;
 * `warning`: works today, but is fragile or suspicious; `info`: a fact worth seeing (figures,
 * what was checked). Any error makes `crdshift doctor` exit 1.
 */
export interface Finding {
  severity: Severity;
  /** Stable, for scripts reading `-o json`: `stored-version-not-in-registry`, `tls-untrusted`, … */
  code: string;
  /** One line: what is wrong, with the names and values involved. */
  message: string;
  /** What to do about it; absent for plain facts. */
  fix?: string;
  /** For scripts reading `-o json`: the numbers behind the message, unrounded for display (ms, counts). */
  figures?: Record<string, number>;
}

export const error = (code: string, message: string, fix: string): Finding => ({
  severity: "error",
  code,
  message,
  fix,
});
export const warning = (code: string, message: string, fix: string): Finding => ({
  severity: "warning",
  code,
  message,
  fix,
});
export const info = (code: string, message: string): Finding => ({ severity: "info", code, message });
