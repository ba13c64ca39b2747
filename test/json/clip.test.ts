import { describe, expect, it } from "vitest";
import { clip, ECHO_LIMIT, quote } from "../../src/json/clip";

describe("clip", () => {
  it("keeps short text as it is and cuts long text to the limit, counting the rest", () => {
    expect(clip("CronTab")).toBe("CronTab");
    expect(clip("x".repeat(ECHO_LIMIT))).toBe("x".repeat(ECHO_LIMIT));
    expect(clip("x".repeat(ECHO_LIMIT + 5))).toBe(`${"x".repeat(ECHO_LIMIT)}... (5 more characters)`);
    expect(quote('a"b')).toBe('"a\\"b"');
    expect(quote("y".repeat(ECHO_LIMIT + 1))).toBe(`"${"y".repeat(ECHO_LIMIT)}"... (1 more character)`);
  });

  it("never cuts a surrogate pair in two", () => {
    const text = `${"x".repeat(ECHO_LIMIT - 1)}😀tail`;
    const clipped = clip(text);
    expect(clipped.startsWith(`${"x".repeat(ECHO_LIMIT - 1)}...`)).toBe(true);
    expect(clipped).toBe(`${"x".repeat(ECHO_LIMIT - 1)}... (6 more characters)`);
    expect(clip("😀😀", 3)).toBe("😀... (2 more characters)");
  });
});
