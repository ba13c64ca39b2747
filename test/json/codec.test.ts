import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { parse as losslessParse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { jsonTreeWith } from "../json-arbitrary";
import { decodeJson, encodeJson, JsonError, OutOfRange } from "../../src/json/codec";
import { printJson } from "../../src/json/print";
import { findSyntaxError } from "../../src/json/syntax";
import { documents } from "./bigint-documents";
import { runs } from "../property-runs";

const nest = (depth: number, inner = "1") => `${'{"a":['.repeat(depth)}${inner}${"]}".repeat(depth)}`;

describe("the iterative printer writes what JSON.stringify writes", () => {
  it("for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(printJson(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: runs(1000) },
    );
  });

  it("for what converters may put in their results: undefined, functions, dates, toJSON, boxed values, -0, NaN", () => {
    const odd = fc.oneof(
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.constant(Symbol("s")),
      fc.date({ noInvalidDate: true }),
      fc.constant({ toJSON: (key: string) => `key ${key}` }),
      fc.constant(new Number(4)),
      fc.constant(new String("boxed")),
      fc.constant(new Boolean(false)),
      fc.constant(-0),
      fc.constant(Number.NaN),
      fc.constant(Number.NEGATIVE_INFINITY),
      // A hole is one of the values a converter may return.
      fc.constant([1, , 3]),
    );
    const value = jsonTreeWith(odd);
    fc.assert(
      fc.property(value, (v) => {
        expect(printJson(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: runs(1000) },
    );
  });

  it("at any depth, where V8's JSON.stringify runs out of stack", () => {
    const text = nest(100_000);
    const value = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(printJson(value)).toBe(text);
    expect(encodeJson(value)).toBe(text);
  });

  it("prints bigint as the integer it is, and refuses a cycle as JSON.stringify does", () => {
    expect(printJson({ a: [18446744073709551615n, -9223372036854775808n] })).toBe(
      '{"a":[18446744073709551615,-9223372036854775808]}',
    );
    const cycle: Record<string, unknown> = { a: {} };
    (cycle.a as Record<string, unknown>).back = cycle;
    expect(() => printJson(cycle)).toThrow(TypeError);
    const shared = { x: 1 };
    expect(printJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });
});

describe("encodeJson", () => {
  it("prints bigint as its digits, deep or not, and a string that looks like a marked one as it is", () => {
    const value = { a: [1n, -18446744073709551615n, "bigint-x:12", { b: Object(5n) }], c: 2 };
    const text = '{"a":[1,-18446744073709551615,"bigint-x:12",{"b":5}],"c":2}';
    expect(encodeJson(value, true)).toBe(text);
    expect(encodeJson(value)).toBe(text); // a converter's bigint, unannounced
    expect(encodeJson(value, true, true)).toBe(text);
  });

  it("property: the same text as JSON.stringify, bigints aside, deep or not", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), fc.boolean(), (value, lossless, deep) => {
        expect(encodeJson(value, lossless, deep)).toBe(JSON.stringify(value));
      }),
      { numRuns: runs(500) },
    );
  });
});

describe("reading numbers that JSON.parse would change", () => {
  it("keeps int64 exact at any depth", () => {
    const decoded = decodeJson(nest(50_000, "-9223372036854775808"));
    expect(decoded.lossless).toBe(true);
    expect(encodeJson(decoded.value, true)).toBe(nest(50_000, "-9223372036854775808"));
  });

  it("puts an integer under a key named __proto__ back as that key's value, never as a prototype", () => {
    // Put back by the double alone, and by markers (two spellings of 2^63 make one double).
    for (const other of ["1", "9223372036854775806"]) {
      const text = `{"__proto__":9223372036854775807,"a":[{"__proto__":-12345678901234567891}],"b":${other}}`;
      const { value } = decodeJson(text) as { value: Record<string, unknown> };
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toBe(9223372036854775807n);
      const inner = (value.a as Array<Record<string, unknown>>)[0]!;
      expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(inner, "__proto__")?.value).toBe(-12345678901234567891n);
      expect(encodeJson(value, true)).toBe(text);
    }
  });

  it("refuses a number beyond a double's range by default, saying where and not what", () => {
    for (const [text, position] of [
      ['{"a":1e400}', 5],
      ["[-1E+400]", 1],
      ["[1, 1e-400]", 4],
      [`[${"9".repeat(400)}.5]`, 1],
      [`[0.${"0".repeat(400)}1]`, 1],
    ] as const) {
      expect(() => decodeJson(text)).toThrow(
        new JsonError(`body holds a number beyond the range of a 64-bit float at position ${position}`),
      );
    }
  });

  it("marks it when asked, so that the object holding it can be named", () => {
    const decoded = decodeJson('{"a":[1e400,-1e400,1e-400,1,12345678901234567890]}', { outOfRange: "mark" });
    expect(decoded.outOfRange).toBe(true);
    expect(decoded.value).toEqual({
      a: [new OutOfRange(true), new OutOfRange(true), new OutOfRange(false), 1, 12345678901234567890n],
    });
  });

  it("property: every number keeps its value, or is marked out of range", () => {
    const mantissa = fc.tuple(
      fc.constantFrom("", "-"),
      fc.stringMatching(/^(0|[1-9]\d{0,40})$/),
      fc.option(fc.stringMatching(/^\d{1,40}$/), { nil: undefined }),
    );
    const exponent = fc.option(
      fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), fc.integer({ min: 0, max: 1200 })),
      { nil: undefined },
    );
    fc.assert(
      fc.property(mantissa, exponent, ([sign, whole, fraction], e) => {
        const digits = `${whole}${fraction ?? ""}`;
        const token = `${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}${e ? `${e[0]}${e[1]}${e[2]}` : ""}`;
        const [value] = decodeJson(`[${token}]`, { outOfRange: "mark" }).value as unknown[];
        const double = Number(token);
        if (!Number.isFinite(double) || (double === 0 && /[1-9]/.test(digits)))
          expect(value).toBeInstanceOf(OutOfRange);
        else if (fraction === undefined && !e && !Number.isSafeInteger(double)) expect(value).toBe(BigInt(token));
        else expect(value).toBe(double);
      }),
      { numRuns: runs(2000) },
    );
  });

  it("property: reads any document as lossless-json reads it (integers beyond 2^53 as bigint, the last of repeated keys)", () => {
    const exactly = (text: string) =>
      Number.isSafeInteger(Number(text)) || !/^-?\d+$/.test(text) ? Number(text) : BigInt(text);
    const big = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String);
    const double = fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d));
    const document = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)),
        big,
        double,
        fc.array(tie("v"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
        fc
          .array(fc.tuple(fc.constantFrom("a", "b", "__proto__", ""), tie("v")), { maxLength: 4 })
          .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
      ),
    })).v;
    fc.assert(
      fc.property(document, (text) => {
        const reference = losslessParse(text, null, {
          parseNumber: exactly,
          onDuplicateKey: ({ newValue }) => newValue,
        });
        expect(isDeepStrictEqual(decodeJson(text).value, reference)).toBe(true);
      }),
      { numRuns: runs(500) },
    );
  });

  it("property: a text with long numbers anywhere, strings and names included, is refused exactly when JSON.parse refuses it", () => {
    const piece = fc.constantFrom(
      ...["{", "}", "[", "]", ",", ":", " ", '"', '"a"', '"\\"', "\\", "-", "e", ".", "0", "true"],
      ...["12345678901234567890", "-9223372036854775808", "1e400", "1.5E-400", "1e5", "9c1e-000000000001"],
    );
    const pieces = fc.array(piece, { maxLength: 12 }).map((list) => list.join(""));
    const damaged = fc
      .tuple(documents, fc.nat(), fc.array(piece, { minLength: 1, maxLength: 3 }))
      .map(([document, at, inserted]) => {
        const i = at % (document.text.length + 1);
        return document.text.slice(0, i) + inserted.join("") + document.text.slice(i);
      });
    // Near-JSON whose names may be bare numbers: once marked, such a name would read as a string.
    const token = fc.constantFrom("12345678901234567890", "-9223372036854775808 ", "1e400", "1.5E-400", '"a"', "1");
    const nearJson = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        token,
        fc.array(tie("value"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
        fc
          .array(fc.tuple(token, fc.constantFrom(":", " :", ""), tie("value")), { maxLength: 3 })
          .map((members) => `{${members.map(([name, colon, value]) => `${name}${colon}${value}`).join(",")}}`),
      ),
    })).value;
    // A number right after a backslash in a string, and what would close that string and its
    // container were a quote put in the number's place (invalid texts that must stay so).
    const escaped = fc
      .tuple(
        fc.constantFrom("[", '{"a":'),
        fc.constantFrom("\\", "\\\\\\", "\\u", "\\u1", '\\":'),
        fc.constantFrom("12345678901234567890", "1e400"),
        fc.constantFrom("", ",1,", ",", ":1"),
        fc.constantFrom('"]', '"}', '"]"]', '"}"}', '","a"]', ':0}"}', '",1]'),
      )
      .map(([open, ...rest]) => `${open}"${rest.join("")}`);
    fc.assert(
      fc.property(fc.oneof(pieces, damaged, nearJson, escaped), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        let read = true;
        try {
          decodeJson(text, { outOfRange: "mark" });
        } catch (error) {
          expect(error).toBeInstanceOf(JsonError);
          read = false;
        }
        expect(read).toBe(valid);
      }),
      { numRuns: runs(3000) },
    );
  });

  it("a number where a name belongs stays an error, and no string passes for a number", () => {
    expect(() => decodeJson("{12345678901234567890:1}")).toThrow(JsonError);
    expect(() => decodeJson('{"a":1,12345678901234567890:1}')).toThrow(JsonError);
    const decoded = decodeJson('{"a":"\\u0001x:0","b":[12345678901234567890,"\\u00010"]}');
    expect(decoded.value).toEqual({ a: "\u0001x:0", b: [12345678901234567890n, "\u00010"] });
    // __proto__ is a key like any other.
    const proto = decodeJson('{"__proto__":12345678901234567890}').value as object;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, "__proto__")?.value).toBe(12345678901234567890n);
  });
});

describe("a text that is not JSON", () => {
  const jsonish = fc.stringMatching(/^[\s{}[\]":,0-9eE+\-.a-z\\]{0,30}$/);
  const damaged = fc
    .tuple(
      fc.jsonValue(),
      fc.nat(),
      fc.constantFrom("", "}", "]", ",", ":", '"', "\\", "NaN", "1e400", "01", "\u0000", "-", "tru"),
      fc.nat({ max: 3 }),
    )
    .map(([value, at, insert, cut]) => {
      const text = JSON.stringify(value);
      const i = at % (text.length + 1);
      return text.slice(0, i) + insert + text.slice(Math.min(text.length, i + cut));
    });

  it("is refused exactly when JSON.parse refuses it, at a position within the text", () => {
    fc.assert(
      fc.property(fc.oneof(jsonish, damaged, fc.string()), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const problem = findSyntaxError(text);
        expect(problem === undefined).toBe(valid);
        if (problem) expect(problem.position).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: runs(3000) },
    );
  });

  it("is reported by where and what, quoting nothing of it", () => {
    const secret = "hunter2-s3cret";
    for (const text of [
      `{"dbPassword":"${secret}","x":NaN}`,
      `{"dbPassword":"${secret}",x:1}`,
      `{"dbPassword":"${secret}"`,
      `{"dbPassword":"${secret}`,
      `{"dbPassword":"${secret}\n"}`,
    ]) {
      let message = "";
      try {
        decodeJson(text);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^body is not valid JSON: [a-z ,'{}[\]:()\\]+ at position \d+$/);
      expect(message).not.toContain(secret.slice(0, 4));
    }
    expect(() => decodeJson('{"dbPassword":"hunter2","x":NaN}')).toThrow(
      "body is not valid JSON: unexpected character where a value should start at position 28",
    );
  });
});
