import fc from "fast-check";
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

  it("never leaves a lone surrogate, whatever the text and the limit (property)", () => {
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    // Well-formed text, astral characters (surrogate pairs) often.
    const text = fc.string({ unit: fc.constantFrom("a", "é", "😀", "𝄞", "\u{10FFFF}"), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 50 }), (input, limit) => {
        const clipped = clip(input, limit);
        expect(loneSurrogate.test(clipped)).toBe(false);
        expect(loneSurrogate.test(quote(input, limit))).toBe(false);
        // What is kept is the text's start, never longer than the limit.
        const kept = input.length <= limit ? clipped : clipped.slice(0, clipped.lastIndexOf("... ("));
        expect(input.startsWith(kept)).toBe(true);
        expect(kept.length).toBeLessThanOrEqual(limit);
        if (input.length <= limit) expect(clipped).toBe(input);
      }),
    );
  });
});
