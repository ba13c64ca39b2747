import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { embeddedJsonBytes, exceedsEmbedded } from "../../src/json/size";

describe("the size of a reply as Lambda carries it", () => {
  it("equals the UTF-8 length of the text JSON-encoded as a string, minus its quotes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(embeddedJsonBytes(text)).toBeLessThanOrEqual(
          Buffer.byteLength(JSON.stringify(text)) - 2 + countControls(text) * 4,
        );
        expect(embeddedJsonBytes(text)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(text)) - 2);
      }),
    );
    expect(embeddedJsonBytes('{"a":"é\\\\"}')).toBe(Buffer.byteLength(JSON.stringify('{"a":"é\\\\"}')) - 2);
  });

  it("decides without counting when the length alone tells", () => {
    expect(exceedsEmbedded("x".repeat(11), 10)).toBe(true);
    expect(exceedsEmbedded('""', 12)).toBe(false);
    expect(exceedsEmbedded('"""', 5)).toBe(true);
    expect(exceedsEmbedded('"""', 6)).toBe(false);
  });
});

function countControls(text: string) {
  return [...text].filter((c) => c.charCodeAt(0) < 0x20).length;
}
