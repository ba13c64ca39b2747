import { describe, expect, it } from "vitest";
import { CEL_STEP_LIMIT, CelCostExceeded, compileRule } from "../../src/check/cel-evaluation";
import { checkCelRules } from "../../src/check/cel-check";

function evaluate(rule: string, self: unknown): unknown {
  const compiled = compileRule(rule);
  if (typeof compiled !== "function") throw new Error(compiled.error);
  return compiled(self);
}

/** `levels` macros nested over `list`: list.length ** levels steps at the least. */
function nestedMacros(levels: number, over = "self"): string {
  let rule = "true";
  for (let i = 0; i < levels; i++) rule = `${over}.all(x${i}, ${rule})`;
  return rule;
}

describe("CEL evaluated with a step bound", () => {
  it("stops nested macros at the bound instead of running for hours", () => {
    const ten = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n];
    // 10^12 iterations unbounded.
    expect(() => evaluate(nestedMacros(12), ten)).toThrow(CelCostExceeded);
    expect(() => evaluate(nestedMacros(8, "[1,2,3,4,5,6,7,8,9,10]"), null)).toThrow(
      `more than ${CEL_STEP_LIMIT.toLocaleString("en-US")} steps`,
    );
    // Within the bound, the same rule is evaluated, and each evaluation has its own budget.
    expect(evaluate(nestedMacros(3), ten)).toBe(true);
    expect(evaluate(nestedMacros(3), ten)).toBe(true);
  }, 60_000);

  it("reports such a rule as not evaluated, once, and does not run it again", () => {
    const schema = {
      type: "array",
      items: { type: "integer" },
      "x-kubernetes-validations": [{ rule: nestedMacros(12) }],
    };
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const first = checkCelRules(ten, schema);
    expect(first.violation).toBeUndefined();
    expect(first.errors).toHaveLength(1);
    expect(first.errors[0]!.reason).toMatch(/^not evaluated: stopped after more than 1,000,000 steps/);
    expect(first.errors[0]!.reason).toContain("call cost exceeds limit for rule");
    for (let i = 0; i < 50; i++) expect(checkCelRules(ten, schema).errors[0]!.reason).toBe(first.errors[0]!.reason);
  }, 60_000);

  it("evaluates matches() with RE2: linear time, RE2's syntax, at the root and below it", () => {
    const backtracking = "'^(a+)+$|^a{25,30}b$'";
    const text = `${"a".repeat(40)}!`;
    expect(evaluate(`self.matches(${backtracking})`, text)).toBe(false);
    expect(evaluate(`self.matches(${backtracking}) || self.size() > 0`, text)).toBe(true);
    expect(evaluate("self.matches('(?i)^abc\\\\z')", "ABC")).toBe(true);
    expect(evaluate("self.matches('^abc\\\\z')", "abc\n")).toBe(false);
    expect(evaluate("self.all(s, s.matches('^\\\\pL+$'))", ["héllo", "wörld"])).toBe(true);
    expect(() => evaluate("self.matches('(?=a)')", "a")).toThrow(
      "matches(): error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
    );
  }, 60_000);

  it("still refuses what cel-js cannot parse, and types as before", () => {
    expect(compileRule("self.")).toHaveProperty("error");
    expect(evaluate("self.size() == 2 && self[0] + 1 == 2", [1n, 5n])).toBe(true);
    expect(() => evaluate("'x'.matches(1)", null)).toThrow("no matching overload");
  });
});
