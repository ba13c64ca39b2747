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
 */
export function jsonDifferences(baseline: unknown, candidate: unknown, path = ""): JsonDifference[] {
  if (sameScalar(baseline, candidate)) return [];
  const bothArrays = Array.isArray(baseline) && Array.isArray(candidate);
  const bothObjects = isRecord(baseline) && isRecord(candidate);
  if (!bothArrays && !bothObjects) return [difference(path, baseline, candidate)];
  const found: JsonDifference[] = [];
  if (bothArrays) {
    const left = baseline as unknown[];
    const right = candidate as unknown[];
    for (let i = 0; i < Math.max(left.length, right.length); i++)
      found.push(...jsonDifferences(left[i], right[i], `${path}[${i}]`));
    return found;
  }
  const left = baseline as Record<string, unknown>;
  const right = candidate as Record<string, unknown>;
  const keys = [...Object.keys(left), ...Object.keys(right).filter((key) => !Object.hasOwn(left, key))];
  for (const key of keys) {
    const a = Object.hasOwn(left, key) ? left[key] : undefined;
    const b = Object.hasOwn(right, key) ? right[key] : undefined;
    found.push(...jsonDifferences(a, b, `${path}${segment(key)}`));
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
