import { describe, expect, it } from "vitest";
import { terminalText } from "../../src/cli/terminal-text";

describe("terminalText", () => {
  it("writes every character a terminal acts on as an escape, and leaves the rest", () => {
    expect(terminalText("a\u001b[2Jb\rc\nd\te\u0000f\u007fg\u009bh\u2028i\u202ej\u2066k")).toBe(
      "a\\x1b[2Jb\\rc\\nd\\te\\x00f\\x7fg\\x9bh\\u2028i\\u202ej\\u2066k",
    );
    expect(terminalText("naïve café — 日本語 🙂")).toBe("naïve café — 日本語 🙂");
  });

  it("clips before escaping: a long value is bounded, whatever it holds", () => {
    const printed = terminalText("\r".repeat(100_000), 10);
    expect(printed).toBe(`${"\\r".repeat(10)}... (99990 more characters)`);
  });
});
