/**
 * Go's `mime.ParseMediaType` as client-go applies it to a reply's `Content-Type`: a header it
 * cannot parse fails the call whatever the status and body (`Internal error occurred: mime: …`).
 */

export interface MediaType {
  type: string;
  error?: string;
}

// RFC 2045 token: printable ASCII but space and the tspecials.
const TOKEN = /^[!#$%&'*+\-.0-9A-Z^_`a-z|~]+/;
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

const trimLeft = (text: string) => text.replace(GO_SPACE, "");

function consumeToken(text: string): [string, string] {
  const token = TOKEN.exec(text)?.[0] ?? "";
  return [token, text.slice(token.length)];
}

/** `checkMediaTypeDisposition`: a lone token is a disposition and passes; `type/subtype` else. */
function dispositionError(text: string): string | undefined {
  const [type, rest] = consumeToken(text);
  if (type === "") return "mime: no media type";
  if (rest === "") return undefined;
  if (!rest.startsWith("/")) return "mime: expected slash after first token";
  const [subtype, after] = consumeToken(rest.slice(1));
  if (subtype === "") return "mime: expected token after slash";
  if (after !== "") return "mime: unexpected content after media subtype";
  return undefined;
}

/** `consumeValue`: a token, or a quoted string (a backslash escapes only a tspecial). */
function consumeValue(text: string): [string, string] {
  if (!text.startsWith('"')) return consumeToken(text);
  let value = "";
  for (let i = 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') return [value, text.slice(i + 1)];
    if (char === "\\" && i + 1 < text.length && '()<>@,;:\\"/[]?='.includes(text[i + 1]!)) {
      value += text[++i];
      continue;
    }
    if (char === "\r" || char === "\n") return ["", text];
    value += char;
  }
  return ["", text];
}

/** `; name=value`, or undefined where there is none to read. */
function consumeParam(text: string): { name: string; value: string; rest: string } | undefined {
  const start = trimLeft(text);
  if (!start.startsWith(";")) return undefined;
  const [name, afterName] = consumeToken(trimLeft(start.slice(1)));
  if (name === "") return undefined;
  let rest = trimLeft(afterName);
  if (!rest.startsWith("=")) return undefined;
  rest = trimLeft(rest.slice(1));
  const [value, after] = consumeValue(rest);
  if (value === "" && after === rest) return undefined;
  return { name: name.toLowerCase(), value, rest: after };
}

export function parseMediaType(header: string): MediaType {
  const cut = header.indexOf(";");
  const base = cut < 0 ? header : header.slice(0, cut);
  const type = base.toLowerCase().trim();
  const error = dispositionError(type);
  if (error) return { type: "", error };
  const params = new Map<string, string>();
  let rest = header.slice(base.length);
  while (rest.length > 0) {
    rest = trimLeft(rest);
    if (rest.length === 0) break;
    const param = consumeParam(rest);
    if (!param) {
      if (rest.trim() === ";") break; // a trailing semicolon is allowed
      return { type, error: "mime: invalid media parameter" };
    }
    const seen = params.get(param.name);
    if (seen !== undefined && seen !== param.value) return { type: "", error: "mime: duplicate parameter name" };
    params.set(param.name, param.value);
    rest = param.rest;
  }
  return { type };
}
