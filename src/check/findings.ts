import { isInstance, messageOf } from "../conversion";

/**
 * What a check found, one entry per distinct defect: a check goes on after a failure, so that a
 * port's every slip is named in one run. Two failures are the same finding when they share their
 * place (a pair of versions, or a version), their rule and their field, the field read as the
 * schema names it (`spec.ports[].name`, map keys as `{}`): the value that tripped it differs from
 * object to object, the defect does not.
 */
export interface Finding {
  /** Where: `v1 -> v1beta1 -> v1` for a pair's round trips, or a version (`v1`) for its schema. */
  place: string;
  /** Which check failed, in a few words: `threw`, `refused`, `invalid result`, `lost on the way`… */
  rule: string;
  /** The field as the schema names it, or what else tells one defect of this rule from another. */
  field: string;
  /** The finding in words, as it was raised for `object` (shrunk to a small one). */
  message: string;
  /** The object that shows it, shrunk while it still shows this finding. */
  object: Record<string, unknown>;
  /** A partial object, as server-side apply sends. */
  partial: boolean;
  /** How many generated objects showed it. */
  count: number;
  /**
   * How early it is shown (RANK): a schema stricter than the CRD, then a converter's throw or
   * misbehaviour, an invalid result, a lost field, too few round trips.
   */
  rank: number;
  /** The seed that replays the check which found it. */
  seed: number;
}

/**
 * A failure with the key that tells it from others (`rule`, `field`) and how early to show it
 * (`rank`, 0 first): thrown by a check of one object, caught by the loop that goes on.
 */
export class FindingError extends Error {
  constructor(
    readonly rule: string,
    readonly field: string,
    readonly rank: number,
    message: string,
  ) {
    super(message);
  }
}

/** How early a finding is shown: what fails every conversion of an object first, then what a cluster would store wrongly. */
export const RANK = {
  /** A version's zod schema stricter than its CRD: every conversion of such an object fails. */
  schema: 0,
  /** A converter's bug, impurity, or a refusal no reason declares: fails a LIST in a cluster. */
  converter: 1,
  /** A result the apiserver would store invalid, or that cannot go back. */
  invalid: 2,
  /** A field lost or changed on the way. */
  lost: 3,
  /** Too few objects round-tripped to prove anything. */
  coverage: 4,
} as const;

/** The key two failures share when they are the same finding. */
export function findingKey(error: unknown): string {
  return isInstance(error, FindingError)
    ? `${(error as FindingError).rule}\n${(error as FindingError).field}`
    : `error\n${messageOf(error)}`;
}

/** How early to show a failure: its rank, a stray Error among the converter findings. */
export function findingRank(error: unknown): number {
  return isInstance(error, FindingError) ? (error as FindingError).rank : RANK.converter;
}

/** What a failure says, read without trusting it (thrown-value.ts): a stray throw may be any value. */
export { messageOf };

/** Findings shown in full, per report: more would bury the first under repeats of one slip's effects. */
export const SHOWN_FINDINGS = 10;

/**
 * The findings with repeats merged, counts added: a version's finding (objects it cannot
 * generate) is raised by each pair that generates from it.
 */
export function withoutRepeats(findings: readonly Finding[]): Finding[] {
  const byKey = new Map<string, Finding>();
  for (const finding of findings) {
    const key = `${finding.place}\n${finding.rule}\n${finding.field}`;
    const seen = byKey.get(key);
    if (seen) byKey.set(key, { ...seen, count: seen.count + finding.count });
    else byKey.set(key, finding);
  }
  return [...byKey.values()];
}

/** Findings most useful first: by rank, then the most frequent; otherwise in the order found. */
export function inOrderOfUse(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => a.rank - b.rank || b.count - a.count);
}

/**
 * A report's findings in words, bounded: the first SHOWN_FINDINGS in full (`text` writes one),
 * the rest a line each, then a line that counts them.
 */
export function findingsText(label: string, findings: readonly Finding[], text: (finding: Finding) => string): string {
  const shown = findings.slice(0, SHOWN_FINDINGS).map(text);
  const rest = findings
    .slice(SHOWN_FINDINGS)
    .map((f) => `  ${f.place}: ${f.rule}${f.field ? ` (${f.field})` : ""}, ${f.count} object(s)`);
  const count = findings.length;
  const more = rest.length > 0 ? `, the first ${SHOWN_FINDINGS} above in full:\n${rest.join("\n")}` : "";
  return `${shown.join("\n\n")}\n\n${label}: ${count} finding${count === 1 ? "" : "s"}${more}`;
}
