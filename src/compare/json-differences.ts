/** One place where two JSON values differ; a side without the field has no value. */
export interface JsonDifference {
  /** jq-style: `.spec.port`, `.items[2]`, `.metadata.annotations["example.com/x"]`; `.` is the whole value. */
  path: string;
  baseline?: unknown;
  candidate?: unknown;
}

/**
 * Every leaf where two JSON values differ, in document order. A value of another type, or a
 * field present on one side only, is one difference at that path (not one per leaf below it).
 * Walked with a stack of its own, not by recursion: objects nest as deep as the apiserver
 * stores them (10,000 levels), deeper than the call stack goes.
 */
export function jsonDifferences(baseline: unknown, candidate: unknown, path = ""): JsonDifference[] {
  const found: JsonDifference[] = [];
  const pending: Array<[unknown, unknown, string]> = [[baseline, candidate, path]];
  while (pending.length > 0) {
    const [a, b, at] = pending.pop()!;
    if (sameScalar(a, b)) continue;
    const bothArrays = Array.isArray(a) && Array.isArray(b);
    if (!bothArrays && !(isRecord(a) && isRecord(b))) {
      found.push(difference(at, a, b));
      continue;
    }
    const children: Array<[unknown, unknown, string]> = [];
    if (bothArrays) {
      const left = a as unknown[];
      const right = b as unknown[];
      for (let i = 0; i < Math.max(left.length, right.length); i++) children.push([left[i], right[i], `${at}[${i}]`]);
    } else {
      const left = a as Record<string, unknown>;
      const right = b as Record<string, unknown>;
      for (const key of [...Object.keys(left), ...Object.keys(right).filter((key) => !Object.hasOwn(left, key))]) {
        const x = Object.hasOwn(left, key) ? left[key] : undefined;
        const y = Object.hasOwn(right, key) ? right[key] : undefined;
        children.push([x, y, `${at}${segment(key)}`]);
      }
    }
    // Last first onto the stack, so the first child is compared next: document order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return found;
}

function difference(path: string, baseline: unknown, candidate: unknown): JsonDifference {
  return {
    path: path || ".",
    ...(baseline !== undefined ? { baseline } : {}),
    ...(candidate !== undefined ? { candidate } : {}),
  };
}

function sameScalar(a: unknown, b: unknown): boolean {
  if (typeof a === "object" && a !== null) return false;
  if (typeof b === "object" && b !== null) return false;
  // int64 beyond 2^53 arrives as bigint on one side and maybe as a number on the other.
  if ((typeof a === "bigint" || typeof b === "bigint") && wholeNumber(a) && wholeNumber(b))
    return BigInt(a) === BigInt(b);
  return Object.is(a, b);
}

function wholeNumber(value: unknown): value is number | bigint {
  return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function segment(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
