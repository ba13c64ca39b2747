import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TOKEN_LENGTH } from "../../src/server/config";
import { createTokenCheck } from "../../src/server/path-token";

const TOKEN = "s3cr3t-t0ken-AAAAAAAAAAAA";
const NEXT = "n3xt-t0ken-BBBBBBBBBBBBBB";

describe("the path token", () => {
  it("matches each accepted token and nothing else near it", () => {
    const check = createTokenCheck([TOKEN, NEXT]);
    expect(check(TOKEN)).toBe(true);
    expect(check(NEXT)).toBe(true);
    for (const near of [`${TOKEN}x`, TOKEN.slice(0, -1), TOKEN.toUpperCase(), `x${TOKEN}`, "", undefined])
      expect(check(near)).toBe(false);
  });

  it("is not fooled by the NUL padding it compares against (a %00 in the path decodes to one)", () => {
    const check = createTokenCheck([TOKEN]);
    expect(check(`${TOKEN}\0`)).toBe(false);
    expect(check(`${TOKEN}${"\0".repeat(TOKEN_LENGTH.max - TOKEN.length)}`)).toBe(false);
    expect(check(`${TOKEN}${"\0".repeat(TOKEN_LENGTH.max)}`)).toBe(false);
  });

  it("matches tokens of the shortest and longest length accepted", () => {
    for (const length of [TOKEN_LENGTH.min, TOKEN_LENGTH.max]) {
      const token = "a".repeat(length - 1) + "Z";
      expect(createTokenCheck([token])(token)).toBe(true);
      expect(createTokenCheck([token])(`${token}Z`)).toBe(false);
    }
  });

  it("accepts only the bare path when no token is set", () => {
    const open = createTokenCheck([]);
    expect(open(undefined)).toBe(true);
    expect(open(TOKEN)).toBe(false);
  });

  it("refuses to be built with a token it could not compare in full", () => {
    expect(() => createTokenCheck(["a".repeat(TOKEN_LENGTH.max + 1)])).toThrow(RangeError);
    expect(() => createTokenCheck([TOKEN, ""])).toThrow(RangeError);
  });

  it("reads every character of the given token once per accepted token, whether it matches or not", () => {
    const check = createTokenCheck([TOKEN, NEXT]);
    for (const text of [TOKEN, NEXT, `x${TOKEN.slice(1)}`, "z".repeat(TOKEN.length), "short"]) {
      let reads = 0;
      // A string that counts its reads: an early exit would read fewer.
      const given = { length: text.length, charCodeAt: (i: number) => (reads++, text.charCodeAt(i)) };
      expect(check(given as unknown as string)).toBe(text === TOKEN || text === NEXT);
      expect(reads).toBe(2 * text.length);
    }
  });

  it("says a given token matches exactly when it equals an accepted one (property)", () => {
    const token = fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{${TOKEN_LENGTH.min},${TOKEN_LENGTH.max}}$`));
    // Given tokens: anything a decoded path segment may be, accepted ones, and near misses.
    const given = (accepted: string[]) =>
      fc.oneof(
        fc.string({ unit: "binary", maxLength: 300 }),
        fc.constantFrom(...accepted),
        fc
          .constantFrom(...accepted)
          .chain((t) =>
            fc
              .tuple(fc.nat(t.length - 1), fc.string({ minLength: 1, maxLength: 1 }))
              .map(([at, c]) => t.slice(0, at) + c + t.slice(at + 1)),
          ),
      );
    fc.assert(
      fc.property(
        fc
          .array(token, { minLength: 1, maxLength: 2 })
          .chain((accepted) => fc.tuple(fc.constant(accepted), given(accepted))),
        ([accepted, candidate]) => {
          expect(createTokenCheck(accepted)(candidate)).toBe(accepted.includes(candidate));
        },
      ),
    );
  });
});
