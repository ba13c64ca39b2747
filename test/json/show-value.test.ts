import { describe, expect, it } from "vitest";
import { showValue } from "../../src/json/show-value";

describe("showValue: a value as every message shows it", () => {
  it("prints JSON, an int64 beyond 2^53 as its exact digits wherever it is", () => {
    expect(showValue(9223372036854775807n)).toBe("9223372036854775807");
    expect(showValue({ n: -9223372036854775808n, list: [2n ** 60n, 1.5] })).toBe(
      '{"n":-9223372036854775808,"list":[1152921504606846976,1.5]}',
    );
    expect(showValue("3")).toBe('"3"');
    expect(showValue(null)).toBe("null");
  });

  it("says missing for no value, clips long ones, and names what JSON cannot write", () => {
    expect(showValue(undefined)).toBe("missing");
    expect(showValue("x".repeat(200), 10)).toBe(`"${"x".repeat(9)}... (192 more characters)`);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(showValue(cycle)).toBe("[object Object]");
    expect(showValue(() => 1)).toBe("[object Function]");
  });
});
