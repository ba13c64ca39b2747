import { RE2JS, RE2JSException } from "re2js";

/**
 * Regular expressions as the apiserver reads them: a CRD's `pattern` and CEL's `matches()` are
 * Go's regexp, RE2 syntax matched in linear time, unanchored (a match anywhere in the text). A
 * JavaScript RegExp would read some patterns differently (`\z`, `(?i)`, `\pL`, lookahead) and
 * backtrack on others for minutes, so matching goes through re2js, a port of RE2 whose syntax
 * errors read as Go's (`error parsing regexp: …`).
 */
export function patternMatches(pattern: string, text: string): boolean {
  const compiled = compiledPattern(pattern);
  if (typeof compiled === "string") throw new Error(`${pattern}: ${compiled}`);
  return compiled.test(text);
}

/** Why Go's regexp refuses the pattern, in its words, or undefined when it compiles. */
export function patternSyntaxError(pattern: string): string | undefined {
  const compiled = compiledPattern(pattern);
  return typeof compiled === "string" ? compiled : undefined;
}

/**
 * The apiserver's refusal of a CRD whose schema has a pattern Go cannot compile
 * (apiextensions' validation), at `fieldPath`; undefined when it compiles.
 */
export function patternRefusal(pattern: string, fieldPath: string): string | undefined {
  const error = patternSyntaxError(pattern);
  return error === undefined
    ? undefined
    : `${fieldPath}: Invalid value: ${JSON.stringify(pattern)}: must be a valid regular expression, but isn't: ${error}`;
}

// Patterns come from CRDs and from CEL arguments (which may be data): the cache is bounded.
const CACHE_LIMIT = 2048;
const cache = new Map<string, RE2JS | string>();

function compiledPattern(pattern: string): RE2JS | string {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = RE2JS.compile(pattern);
    } catch (error) {
      if (!(error instanceof RE2JSException)) throw error;
      compiled = error.message;
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled;
}

/**
 * A JavaScript RegExp that proposes strings for the pattern (fast-check generates from it), or
 * undefined when JavaScript cannot read it. RE2 spellings JavaScript lacks are translated where
 * the meaning carries over; every proposal is still held to RE2 (patternMatches), so a
 * translation that reads differently only costs candidates, never a wrong verdict.
 */
export function proposingRegExp(pattern: string): RegExp | undefined {
  let source = pattern;
  let flags = "";
  // Leading flag groups: (?s) carries over; under (?i) the pattern's own spelling proposes
  // (fast-check cannot generate for the i flag, and RE2 accepts those strings all the same).
  const leading = /^\(\?([is]+)\)/.exec(source);
  if (leading) {
    if (leading[1]!.includes("s")) flags += "s";
    source = source.slice(leading[0].length);
  }
  source = source
    .replaceAll("(?P<", "(?<")
    .replace(/\\A/g, "^")
    .replace(/\\z/g, "$")
    .replace(/\\([pP])([A-Za-z])/g, "\\$1{$2}")
    .replace(
      /\[:(alpha|digit|alnum|upper|lower|space|xdigit|word|punct):\]/g,
      (_all, name: keyof typeof POSIX_RANGES) => POSIX_RANGES[name],
    );
  for (const extra of ["u", ""]) {
    try {
      return new RegExp(source, flags + extra);
    } catch {
      // try without the u flag, which refuses escapes Go allows (\-, \_)
    }
  }
  return undefined;
}

const POSIX_RANGES = {
  alpha: "A-Za-z",
  digit: "0-9",
  alnum: "0-9A-Za-z",
  upper: "A-Z",
  lower: "a-z",
  space: "\\t\\n\\v\\f\\r ",
  xdigit: "0-9A-Fa-f",
  word: "0-9A-Za-z_",
  punct: "!-/:-@\\[-`{-~",
};
