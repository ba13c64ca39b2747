/**
 * A pattern's unbounded quantifiers (`*`, `+`, `{n,}`) bounded by the longest string a schema
 * allows, so that fast-check proposes strings of every allowed length. Generating from
 * `^[0-9a-f]+$` alone proposes short strings only, and a `minLength: 40` beside it would
 * otherwise never be met (a false finding). Only proposals change: every string is still judged
 * by the pattern itself (Go's RE2 for a CRD's).
 */
export function boundedQuantifiers(regex: RegExp, longest: number): RegExp | undefined {
  const source = regex.source;
  let out = "";
  let inClass = false;
  let changed = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\") {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (char === "]") inClass = false;
      out += char;
    } else if (char === "[") {
      inClass = true;
      out += char;
    } else if (char === "*" || char === "+") {
      out += `{${char === "*" ? 0 : 1},${longest}}`;
      changed = true;
    } else if (char === "{") {
      const open = /^\{(\d+),\}/.exec(source.slice(i));
      if (open) {
        out += `{${open[1]},${Math.max(Number(open[1]), longest)}}`;
        i += open[0].length - 1;
        changed = true;
      } else out += char;
    } else out += char;
  }
  if (!changed) return undefined;
  try {
    return new RegExp(out, regex.flags);
  } catch {
    return undefined;
  }
}
