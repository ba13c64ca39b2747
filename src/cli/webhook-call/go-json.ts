/**
 * JSON as the apiserver's Go encoder prints it: compact, map keys sorted (custom resources are
 * Go maps), `<`, `>`, `&`, U+2028 and U+2029 escaped, integers as integers (bigint included).
 * A webhook that only works with JavaScript's own key order or escapes fails here, as it would
 * in the cluster.
 */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return goString(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`${value} cannot be sent as JSON`);
      return JSON.stringify(value);
    case "bigint":
      return value.toString();
    case "boolean":
      return value ? "true" : "false";
  }
  if (Array.isArray(value)) return `[${value.map((item) => goJson(item)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort(byCodePoint);
  return `{${keys.map((key) => `${goString(key)}:${goJson(record[key])}`).join(",")}}`;
}

/** An object in the order given (Go structs keep their field order), values as `goJson`. */
export function goStruct(fields: ReadonlyArray<readonly [string, string]>): string {
  return `{${fields.map(([key, json]) => `${goString(key)}:${json}`).join(",")}}`;
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;

function goString(text: string): string {
  return JSON.stringify(text).replace(HTML_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Go sorts map keys by their UTF-8 bytes, which is code point order (not UTF-16 order). */
function byCodePoint(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
