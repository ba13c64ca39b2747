import fc from "fast-check";
import { sha256 } from "hono/utils/crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/platform/sha256";

describe("node:crypto's SHA-256 for the token comparison", () => {
  it("is SHA-256 in hex, as Web Crypto's on Workers", async () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 300 }), async (text) => {
        expect(sha256Hex(text)).toBe(await sha256(text));
      }),
      { numRuns: 300 },
    );
  });
});
