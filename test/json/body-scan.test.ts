import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanBody } from "../../src/json/body-scan";
import { treeDepth, treeShape } from "../../src/json/tree-shape";
import { runs } from "../property-runs";

describe("the body scan", () => {
  const depthOf = (value: unknown): number =>
    typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

  it("measures the nesting JSON.parse sees, whatever strings hold", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(scanBody(text).depth).toBe(depthOf(JSON.parse(text)));
      }),
      { numRuns: runs(500) },
    );
  });

  it("counts the same depth as the parsed tree's, which is measured without recursion", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(treeDepth(JSON.parse(text))).toBe(scanBody(text).depth);
      }),
      { numRuns: runs(500) },
    );
    const deep = `${'[{"a":'.repeat(50_000)}1${"}]".repeat(50_000)}`;
    expect(treeDepth(JSON.parse(deep))).toBe(100_000);
    expect(scanBody(deep).depth).toBe(100_000);
  });

  it("notices a number of 16 or more digits (a possible int64) or with a 3-digit exponent, and only outside strings", () => {
    const exponent = fc.tuple(
      fc.integer({ min: -99, max: 99 }),
      fc.constantFrom("e", "E"),
      fc.constantFrom("", "+", "-"),
      fc.integer({ min: 0, max: 2000 }),
    );
    const value = fc.oneof(
      fc.jsonValue(),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n }).map(String),
      exponent.map(([m, e, sign, x]) => `${m}${e}${sign}${x}`),
      fc.string().map((s) => JSON.stringify(`${s}1e400`)),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), (values) => {
        // Number literals go in as written; any other string (fc.jsonValue's too) as a JSON string.
        const text = `[${values.map((v) => (typeof v === "string" && /^-?\d[\d.eE+-]*$/.test(v) ? v : JSON.stringify(v))).join(",")}]`;
        const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
        expect(scanBody(text).carefulNumbers).toBe(/\d{16}|[eE][+-]?\d{3}/.test(outsideStrings));
      }),
      { numRuns: runs(500) },
    );
    expect(scanBody('{"uid":"12345678901234567890","e":"1e400"}').carefulNumbers).toBe(false);
    expect(scanBody('{"n":12345678901234567890}').carefulNumbers).toBe(true);
    expect(scanBody('{"n":1E-400}').carefulNumbers).toBe(true);
  });

  it("notices every string that reads __proto__, however its characters are escaped", () => {
    const key = fc.constantFrom("__proto__", "_proto__", "__proto_", "__proto__x", "x__proto__", "__PROTO__", "_", "a");
    const keyed = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 1 }),
        key,
        tie("object"),
        fc.array(tie("value")),
      ),
      object: fc.dictionary(fc.oneof(key, fc.string()), tie("value"), { maxKeys: 4 }),
    })).value;
    // Each character of a string written as a \u escape where the mask says so, in either case.
    const escaped = (text: string, mask: boolean[]) => {
      let k = 0;
      return text.replace(/"(?:[^"\\]|\\.)*"/g, (literal) =>
        literal.replace(/[_protPROTxa]/g, (c) => {
          const bit = mask.length > 0 && mask[k++ % mask.length];
          if (!bit) return c;
          const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
          return `\\u${k % 2 ? hex : hex.toUpperCase()}`;
        }),
      );
    };
    fc.assert(
      fc.property(keyed, fc.array(fc.boolean(), { maxLength: 12 }), (value, mask) => {
        const text = escaped(JSON.stringify(value), mask);
        const strings = [...text.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((m) => JSON.parse(m[0]) as unknown);
        const { protoKey } = scanBody(text);
        expect(protoKey).toBe(strings.includes("__proto__"));
        // What it stands for: no key named __proto__ in the parsed tree when it says none.
        if (treeShape(JSON.parse(text)).protoKey) expect(protoKey).toBe(true);
      }),
      { numRuns: runs(500) },
    );
    expect(scanBody('{"\\u005f\\u005F\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f":1}').protoKey).toBe(true);
    expect(scanBody('{"a":"__proto__"}').protoKey).toBe(true);
    expect(scanBody('{"a":"_proto__\\u005f"}').protoKey).toBe(false);
  });

  const review = (objects: unknown[]) => ({ request: { uid: "u", objects } });
  const anyObject = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue());

  it("counts the elements of request.objects, however the body is laid out", () => {
    fc.assert(
      fc.property(fc.array(anyObject, { maxLength: 8 }), fc.constantFrom(undefined, 1, "\t"), (objects, indent) => {
        const text = JSON.stringify(review(objects), null, indent);
        const shape = scanBody(text);
        expect(shape.objects?.count).toBe(objects.length);
        expect(shape.objectsArrays).toBe(1);
      }),
      { numRuns: runs(300) },
    );
    // A repeated key: the last one is the one JSON.parse keeps, and the one counted.
    const repeated = '{"request":{"objects":[{},{},{}],"objects":[{}]}}';
    expect(scanBody(repeated)).toMatchObject({ objects: { count: 1 }, objectsArrays: 2 });
    // Spelled with an escape, the key is not recognized: the limits are then checked on the tree.
    expect(scanBody('{"request":{"obj\\u0065cts":[{}]}}').objects).toBeUndefined();
  });

  it("finds the first object over the size limit, in UTF-8 bytes of its text, and where its metadata is", () => {
    const object = fc.record({
      metadata: fc.option(fc.record({ name: fc.string() }), { nil: undefined }),
      data: fc.string(),
    });
    fc.assert(
      fc.property(fc.array(object, { maxLength: 6 }), fc.integer({ min: 2, max: 60 }), (objects, limit) => {
        const text = JSON.stringify(review(objects));
        const sizes = objects.map((o) => new TextEncoder().encode(JSON.stringify(o)).length);
        const index = sizes.findIndex((size) => size > limit);
        const oversized = scanBody(text, limit).objects?.oversized;
        if (index < 0) {
          expect(oversized).toBeUndefined();
        } else {
          expect(oversized).toMatchObject({ index, bytes: sizes[index] });
          const metadata = oversized!.metadata;
          expect(metadata && JSON.parse(text.slice(metadata.start, metadata.end))).toEqual(objects[index]!.metadata);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it("counts the objects and arrays a parsed tree holds, and the commas and colons outside strings", () => {
    const containersOf = (value: unknown): number =>
      typeof value === "object" && value !== null
        ? 1 + Object.values(value).reduce((sum: number, item) => sum + containersOf(item), 0)
        : 0;
    const separatorsOf = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, "").replace(/[^,:]/g, "").length;
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, indent) => {
        const text = JSON.stringify(value, null, indent ? 2 : undefined);
        const { containers, separators } = scanBody(text);
        expect(containers).toBe(containersOf(JSON.parse(text)));
        expect(separators).toBe(separatorsOf(text));
      }),
      { numRuns: runs(500) },
    );
    expect(scanBody('[{},{"a":[1,2]},":,"]')).toMatchObject({ containers: 4, separators: 4 });
  });
});
