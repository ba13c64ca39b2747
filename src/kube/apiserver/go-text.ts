/**
 * How Go prints the values the apiserver names in its errors: a group/version as apimachinery
 * parses and prints it, a string as `%q` quotes it, a JSON value as encoding/json names its kind.
 */

export interface GroupVersion {
  group: string;
  version: string;
}

/** apimachinery `ParseGroupVersion`: undefined where it fails (more than one `/`). */
export function parseGroupVersion(text: string): GroupVersion | undefined {
  if (text === "" || text === "/") return { group: "", version: "" };
  const parts = text.split("/");
  if (parts.length === 1) return { group: "", version: text };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** `GroupVersion.String()`: the version alone in the core group. */
export function groupVersionText(gv: GroupVersion): string {
  return gv.group === "" ? gv.version : `${gv.group}/${gv.version}`;
}

/** `GroupVersionKind.String()`: always with the slash, `/, Kind=` when all is empty. */
export function groupVersionKindText(gv: GroupVersion, kind: string): string {
  return `${gv.group}/${gv.version}, Kind=${kind}`;
}

const SHORT_ESCAPES: Record<number, string> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  34: '\\"',
  92: "\\\\",
};

/** `strconv.Quote` for the text the apiserver quotes with `%q` (ASCII controls, C1, line separators). */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const short = SHORT_ESCAPES[code];
    if (short) out += short;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if ((code >= 0x80 && code <= 0xa0) || code === 0xad || code === 0x2028 || code === 0x2029)
      out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/** What encoding/json calls a JSON value in an `UnmarshalTypeError`. */
export function jsonKindInGo(value: unknown): string {
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "number":
    case "bigint":
      return "number";
    default:
      return "object";
  }
}

const GO_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const GO_SPACE_ENDS = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, "g");

/** `strings.TrimSpace`: Go's white space, which is not JavaScript's `\s` (no U+FEFF). */
export function trimSpaceGo(text: string): string {
  return text.replace(GO_SPACE_ENDS, "");
}
