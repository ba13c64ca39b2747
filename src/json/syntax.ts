/**
 * Where a JSON text first breaks the grammar, and how, in words that quote nothing of it: a
 * body's text may hold secrets, and V8's SyntaxError messages quote the text around the error.
 * Only run once JSON.parse has failed; iterative, so any depth is fine.
 */
export interface SyntaxProblem {
  /** In UTF-16 units from the start of the text. */
  position: number;
  problem: string;
}

const ARRAY = 0;
const OBJECT = 1;

export function findSyntaxError(text: string): SyntaxProblem | undefined {
  const containers: number[] = [];
  const n = text.length;
  let i = skipSpace(text, 0);
  for (;;) {
    // A value is expected at i.
    if (i >= n) return { position: i, problem: "unexpected end of the text" };
    const c = text.charCodeAt(i);
    if (c === 123 /* { */ || c === 91 /* [ */) {
      i = skipSpace(text, i + 1);
      const close = c === 123 ? 125 : 93;
      if (text.charCodeAt(i) === close) {
        i++;
      } else {
        containers.push(c === 123 ? OBJECT : ARRAY);
        if (c === 123) {
          const key = readKey(text, i);
          if (typeof key !== "number") return key;
          i = key;
        }
        continue;
      }
    } else if (c === 34 /* " */) {
      const end = readString(text, i);
      if (typeof end !== "number") return end;
      i = end;
    } else if (c === 45 /* - */ || isDigit(c)) {
      const end = readNumber(text, i);
      if (typeof end !== "number") return end;
      i = end;
    } else {
      const literal = c === 116 ? "true" : c === 102 ? "false" : c === 110 ? "null" : undefined;
      if (literal === undefined || !text.startsWith(literal, i))
        return { position: i, problem: "unexpected character where a value should start" };
      i += literal.length;
    }
    // After a value: a separator, the end of containers, or the end of the text.
    for (;;) {
      i = skipSpace(text, i);
      if (containers.length === 0) {
        return i < n ? { position: i, problem: "unexpected text after the end of the document" } : undefined;
      }
      const inObject = containers[containers.length - 1] === OBJECT;
      const c2 = text.charCodeAt(i);
      if (c2 === (inObject ? 125 : 93)) {
        containers.pop();
        i++;
        continue;
      }
      if (c2 !== 44 /* , */) {
        if (i >= n) return { position: i, problem: "unexpected end of the text" };
        return {
          position: i,
          problem: inObject
            ? "expected ',' or '}' after a property's value"
            : "expected ',' or ']' after an array element",
        };
      }
      i = skipSpace(text, i + 1);
      if (inObject) {
        const key = readKey(text, i);
        if (typeof key !== "number") return key;
        i = key;
      }
      break;
    }
  }
}

/** A property name and its colon, from `i`; returns where its value starts. */
function readKey(text: string, i: number): number | SyntaxProblem {
  if (text.charCodeAt(i) !== 34) {
    if (i >= text.length) return { position: i, problem: "unexpected end of the text" };
    return { position: i, problem: "expected a property name in double quotes" };
  }
  const end = readString(text, i);
  if (typeof end !== "number") return end;
  const colon = skipSpace(text, end);
  if (text.charCodeAt(colon) !== 58 /* : */) {
    if (colon >= text.length) return { position: colon, problem: "unexpected end of the text" };
    return { position: colon, problem: "expected ':' after a property name" };
  }
  return skipSpace(text, colon + 1);
}

function readString(text: string, start: number): number | SyntaxProblem {
  const n = text.length;
  for (let i = start + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) return i + 1;
    if (c < 0x20) return { position: i, problem: "control character in a string (it must be escaped)" };
    if (c === 92 /* \ */) {
      const e = text.charCodeAt(i + 1);
      if (e === 117 /* u */) {
        for (let k = 2; k < 6; k++) {
          if (!isHex(text.charCodeAt(i + k))) return { position: i, problem: "invalid \\u escape in a string" };
        }
        i += 5;
      } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
        i++;
      } else {
        return { position: i, problem: "invalid escape in a string" };
      }
    }
  }
  return { position: start, problem: "string never closed" };
}

function readNumber(text: string, start: number): number | SyntaxProblem {
  let i = start;
  if (text.charCodeAt(i) === 45) i++;
  const bad = () => ({ position: start, problem: "invalid number" });
  if (text.charCodeAt(i) === 48) i++;
  else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
  else return bad();
  if (text.charCodeAt(i) === 46 /* . */) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return bad();
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 101 || e === 69) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 43 || sign === 45) i++;
    if (!isDigit(text.charCodeAt(i))) return bad();
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
