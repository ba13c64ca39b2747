import { describe, expect, it } from "vitest";
import { patternMatches, patternRefusal, patternSyntaxError, proposingRegExp } from "../../../src/kube/crd/re2-pattern";

// CRD patterns and CEL's matches() are Go's regexp: RE2 syntax, linear time, a match anywhere.
describe("patterns as the apiserver reads them", () => {
  it(
    "matches a pattern that backtracks in JavaScript in linear time",
    () => {
      const pattern = "^(a+)+$|^a{25,30}b$";
      // JavaScript's RegExp takes about 2^n steps here: minutes at 30 characters, ages at 10,000.
      for (const length of [30, 40, 10_000]) expect(patternMatches(pattern, `${"a".repeat(length)}!`)).toBe(false);
      expect(patternMatches(pattern, `${"a".repeat(28)}b`)).toBe(true);
      expect(patternMatches(pattern, "a".repeat(10_000))).toBe(true);
    },
    // Generous for a loaded machine: the backtracking engine would not finish in hours.
    30_000,
  );

  it("reads RE2's syntax with RE2's meaning", () => {
    // \z: the end of the text only; JavaScript has no \z (with the u flag it refuses it).
    expect(patternMatches("^abc\\z", "abc")).toBe(true);
    expect(patternMatches("^abc\\z", "abc\n")).toBe(false);
    // (?i): case-insensitive from there on; JavaScript refuses the group.
    expect(patternMatches("(?i)^abc$", "ABC")).toBe(true);
    expect(patternMatches("^(?i:a)bc$", "Abc")).toBe(true);
    expect(patternMatches("^(?i:a)bc$", "ABC")).toBe(false);
    // \pL: a Unicode letter, one-letter class name without braces.
    expect(patternMatches("^\\pL+$", "héllo")).toBe(true);
    expect(patternMatches("^\\pL+$", "h3llo")).toBe(false);
    expect(patternMatches("^[[:alpha:]]+$", "abc")).toBe(true);
    // Go's $ without (?m) is the end of the text, not before a final newline.
    expect(patternMatches("^a$", "a\n")).toBe(false);
    // Unanchored: a match anywhere.
    expect(patternMatches("b", "abc")).toBe(true);
    const inlineFlags = "(?i)^abc$";
    expect(() => new RegExp(inlineFlags, "u")).toThrow(); // what the old JavaScript reading did
  });

  it("refuses what Go's regexp refuses, in its words, as the apiserver reports it", () => {
    expect(patternSyntaxError("^(?=a)a+$")).toBe("error parsing regexp: invalid or unsupported Perl syntax: `(?=`");
    expect(patternSyntaxError("a{1001}")).toBe("error parsing regexp: invalid repeat count: `{1001}`");
    expect(patternSyntaxError("\\Z")).toBe("error parsing regexp: invalid escape sequence: `\\Z`");
    expect(patternSyntaxError("^[a-z]+$")).toBeUndefined();
    // The apiserver's own test expects this exact text for pattern "+" (apiextensions' validation_test.go).
    expect(patternRefusal("+", "spec.versions[0].schema.openAPIV3Schema.properties[foo].pattern")).toBe(
      'spec.versions[0].schema.openAPIV3Schema.properties[foo].pattern: Invalid value: "+": must be a valid regular expression, but isn\'t: error parsing regexp: missing argument to repetition operator: `+`',
    );
    expect(() => patternMatches("(?=a)", "a")).toThrow("invalid or unsupported Perl syntax");
  });

  it("translates RE2 spellings into a JavaScript RegExp that proposes matching strings", () => {
    for (const [pattern, sample] of [
      ["(?i)^abc\\z", "abc"],
      ["^\\pL+$", "é"],
      ["^(?P<name>[a-z]+)$", "abc"],
      ["\\A[[:digit:]]+\\z", "123"],
    ] as const) {
      const proposing = proposingRegExp(pattern);
      expect(proposing, pattern).toBeDefined();
      expect(proposing!.test(sample), pattern).toBe(true);
      expect(patternMatches(pattern, sample), pattern).toBe(true);
    }
    expect(proposingRegExp("(?U)a+")).toBeUndefined();
  });
});
