import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanBody, treeDepth } from "../../src/protocol/shape";
import { convertFails, convertOk, cronTab, post, review, testApp, wire } from "../helpers";

describe("limits, each configurable, each with a clear message", () => {
  it("objects per review (CRDSHIFT_MAX_OBJECTS): a Failure before any conversion", async () => {
    const { app } = testApp({ env: { CRDSHIFT_MAX_OBJECTS: "3" } });
    const objects = (n: number) => Array.from({ length: n }, (_, i) => cronTab("v1beta1", `c${i}`, { hostPort: "h:1" }));
    await convertOk(app, review("example.com/v1", objects(3)));
    expect(await convertFails(app, review("example.com/v1", objects(4)))).toBe(
      "the review holds 4 objects, over this webhook's limit of 3 per review (CRDSHIFT_MAX_OBJECTS)",
    );
  });

  it("size of one object (CRDSHIFT_MAX_OBJECT_BYTES): a Failure naming it", async () => {
    const { app } = testApp({ env: { CRDSHIFT_MAX_OBJECT_BYTES: "3000" } });
    const small = cronTab("v1beta1", "small", { hostPort: "h:1" });
    await convertOk(app, review("example.com/v1", [small, cronTab("v1beta1", "near", { hostPort: "h:1", note: "é".repeat(900) })]));
    const big = cronTab("v1beta1", "big", { hostPort: "h:1", note: "é".repeat(1500) }); // 1,500 characters, 3,000 bytes
    expect(await convertFails(app, review("example.com/v1", [small, big]))).toMatch(
      /^object 1 \(default\/big, uid uid-big\) is 31\d\d bytes, over this webhook's limit of 3000 per object \(CRDSHIFT_MAX_OBJECT_BYTES\)$/,
    );
  });

  // Small bodies are parsed first and measured on the tree; bodies that might hold an item over
  // the size limit are scanned first (src/engine/review.ts): both must say the same.
  for (const [path, env] of [
    ["parsed, then measured", {}],
    ["scanned before parsing", { CRDSHIFT_MAX_OBJECT_BYTES: "1000" }],
  ] as const) {
    it(`nesting depth (CRDSHIFT_MAX_DEPTH): a 400 before any conversion, ${path}`, async () => {
      const { app } = testApp({ env: { CRDSHIFT_MAX_DEPTH: "10", ...env } });
      // root, request, objects, the object, then a..f: 10 levels; g is a value.
      const ok = cronTab("v1beta1", "n", { hostPort: "h:1", a: { b: { c: { d: { e: { f: { g: 1 } } } } } } });
      expect((await post(app, wire(review("example.com/v1", [ok])))).status).toBe(200);
      const nested = cronTab("v1beta1", "n", { hostPort: "h:1", a: { b: { c: { d: { e: { f: { g: [1] } } } } } } });
      const res = await post(app, wire(review("example.com/v1", [nested])));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "body is nested 11 levels deep, over the limit of 10 (CRDSHIFT_MAX_DEPTH)" });
    });
  }

  it("the defaults let every real review through: 1,000 levels, 100,000 objects, 3 MiB per object", () => {
    const { config } = testApp();
    expect(config).toMatchObject({ maxDepth: 1000, maxObjects: 100_000, maxObjectBytes: 3 * 1024 * 1024 });
  });
});

describe("the body scan", () => {
  const depthOf = (value: unknown): number =>
    typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

  it("measures the nesting JSON.parse sees, whatever strings hold", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(scanBody(text).depth).toBe(depthOf(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it("counts the same depth as the parsed tree's, which is measured without recursion", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(treeDepth(JSON.parse(text))).toBe(scanBody(text).depth);
      }),
      { numRuns: 500 },
    );
    const deep = `${"[{\"a\":".repeat(50_000)}1${"}]".repeat(50_000)}`;
    expect(treeDepth(JSON.parse(deep))).toBe(100_000);
    expect(scanBody(deep).depth).toBe(100_000);
  });

  it("notices a number of 16 or more digits (a possible int64), and only outside strings", () => {
    const value = fc.oneof(fc.jsonValue(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), (values) => {
        const text = `[${values.map((v) => (typeof v === "bigint" ? v.toString() : JSON.stringify(v))).join(",")}]`;
        const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
        expect(scanBody(text).longNumber).toBe(/\d{16}/.test(outsideStrings));
      }),
      { numRuns: 500 },
    );
    expect(scanBody('{"uid":"12345678901234567890"}').longNumber).toBe(false);
    expect(scanBody('{"n":12345678901234567890}').longNumber).toBe(true);
  });

  it("measures the largest item of request.objects", () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 5 }), (objects) => {
        const text = JSON.stringify({ apiVersion: "a", request: { uid: "u", objects } });
        expect(scanBody(text).largestItem).toBe(Math.max(0, ...objects.map((o) => JSON.stringify(o).length)));
      }),
    );
  });
});
