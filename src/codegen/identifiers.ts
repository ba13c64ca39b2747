/** Names and keys as they appear in generated TypeScript. */

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval undefined NaN Infinity Object Array String Number Boolean BigInt Symbol Error Promise JSON"
  ).split(" "),
);

/** A camelCase identifier made of a name's letters and digits: `backend-refs` -> `backendRefs`. */
export function camelName(text: string): string {
  const parts = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = parts
    .map((part, i) =>
      i === 0 ? part.charAt(0).toLowerCase() + part.slice(1) : part.charAt(0).toUpperCase() + part.slice(1),
    )
    .join("");
  const name = /^[0-9]/.test(joined) ? `_${joined}` : joined;
  return name || "_";
}

/** A kind's constant in its file: `HTTPRoute` -> `httpRoute`, `CronTab` -> `cronTab`. */
export function kindConstName(kind: string): string {
  // A leading run of capitals is one word (HTTPRoute -> http + Route).
  const words = kind.replace(/^([A-Z]+)(?=[A-Z][a-z]|$)/, (run) => run.toLowerCase());
  const name = camelName(words);
  // The kind file also names `defineKind` and `versions`.
  return isUsableName(name) && name !== "versions" && name !== "defineKind" ? name : `${name}Kind`;
}

export function isUsableName(name: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED.has(name);
}

/** An object literal key: bare when it can be, quoted otherwise; `__proto__` computed, so it stays data. */
export function propertyKey(key: string): string {
  if (key === "__proto__") return `["__proto__"]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** The singular of a list field's name, for the name of its items: `rules` -> `rule`. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|sh|ch|x)es$/.test(name)) return name.slice(0, -2);
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return `${name}Item`;
}

/** Text safe inside a `//` comment: no line terminators (U+2028 and U+2029 end a comment too). */
export function commentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ");
}

/** `text` as comment lines of at most 100 columns, each `indent marker text`. */
export function wrapComment(text: string, indent: string, marker = "//"): string {
  const lines: string[] = [];
  let line = "";
  for (const word of commentText(text).split(" ")) {
    if (line && indent.length + 3 + line.length + word.length + 1 > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${indent}${marker} ${l}\n`).join("");
}
