import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { scanBody, treeDepth } from "../../src/protocol/body-scan";
import { convertFails, convertOk, cronTab, post, review, testApp, wire } from "../helpers";

describe("limits, each configurable, each with a clear message", () => {
  it("objects per review (CRDSHIFT_MAX_OBJECTS): a Failure before any conversion", async () => {
    const { app } = testApp({ env: { CRDSHIFT_MAX_OBJECTS: "3" } });
    const objects = (n: number) =>
      Array.from({ length: n }, (_, i) => cronTab("v1beta1", `c${i}`, { hostPort: "h:1" }));
    await convertOk(app, review("example.com/v1", objects(3)));
    expect(await convertFails(app, review("example.com/v1", objects(4)))).toBe(
      "the review holds 4 objects, over this webhook's limit of 3 per review (CRDSHIFT_MAX_OBJECTS)",
    );
  });

  it("size of one object (CRDSHIFT_MAX_OBJECT_BYTES): a Failure naming it", async () => {
    const { app } = testApp({ env: { CRDSHIFT_MAX_OBJECT_BYTES: "3000" } });
    const small = cronTab("v1beta1", "small", { hostPort: "h:1" });
    await convertOk(
      app,
      review("example.com/v1", [small, cronTab("v1beta1", "near", { hostPort: "h:1", note: "é".repeat(900) })]),
    );
    const big = cronTab("v1beta1", "big", { hostPort: "h:1", note: "é".repeat(1500) }); // 1,500 characters, 3,000 bytes
    expect(await convertFails(app, review("example.com/v1", [small, big]))).toMatch(
      /^object 1 \(default\/big, uid uid-big\) is 31\d\d bytes, over this webhook's limit of 3000 per object \(CRDSHIFT_MAX_OBJECT_BYTES\)$/,
    );
  });

  // Small bodies are parsed first and measured on the tree; bodies that might hold an item over
  // the size limit are scanned first (src/engine/convert-body.ts): both must say the same.
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
      expect(await res.json()).toEqual({
        error: "body is nested 11 levels deep, over the limit of 10 (CRDSHIFT_MAX_DEPTH)",
      });
    });
  }

  it("the defaults let every real review through: 10,000 levels (the apiserver's own), 100,000 objects, 3 MiB per object", () => {
    const { config } = testApp();
    expect(config).toMatchObject({ maxDepth: 10_000, maxObjects: 100_000, maxObjectBytes: 3 * 1024 * 1024 });
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
      { numRuns: 500 },
    );
    expect(scanBody('{"uid":"12345678901234567890","e":"1e400"}').carefulNumbers).toBe(false);
    expect(scanBody('{"n":12345678901234567890}').carefulNumbers).toBe(true);
    expect(scanBody('{"n":1E-400}').carefulNumbers).toBe(true);
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
      { numRuns: 300 },
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
      { numRuns: 300 },
    );
  });
});

describe("a body over a limit is refused before its tree is built", () => {
  /** The lengths of the texts JSON.parse is given while the request is served. */
  async function parsedLengths(app: ReturnType<typeof testApp>["app"], body: string) {
    const lengths: number[] = [];
    const parse = JSON.parse;
    const spy = vi
      .spyOn(JSON, "parse")
      .mockImplementation((text: string, reviver?: any) => (lengths.push(text.length), parse(text, reviver)));
    try {
      const res = await post(app, body);
      return { res, lengths };
    } finally {
      spy.mockRestore();
    }
  }
  const envelope = (objects: string) =>
    `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u1","desiredAPIVersion":"example.com/v1","objects":[${objects}]}}`;

  it("too many objects: only the envelope is parsed, for the Failure", async () => {
    const { app } = testApp({ env: { CRDSHIFT_MAX_OBJECTS: "1000" } });
    const body = envelope(Array(400_000).fill("{}").join(","));
    const { res, lengths } = await parsedLengths(app, body);
    expect(Math.max(...lengths)).toBeLessThan(200);
    expect(res.status).toBe(200);
    expect((await res.json()).response).toEqual({
      uid: "u1",
      result: {
        status: "Failure",
        message: "the review holds 400000 objects, over this webhook's limit of 1000 per review (CRDSHIFT_MAX_OBJECTS)",
      },
    });
  });

  it("whatever the size limit: a body over 1 MiB is always scanned before it is parsed", async () => {
    const { app } = testApp({
      env: { CRDSHIFT_MAX_OBJECTS: "1000", CRDSHIFT_MAX_OBJECT_BYTES: String(300 * 1024 * 1024) },
    });
    const { res, lengths } = await parsedLengths(app, envelope(Array(400_000).fill("{}").join(",")));
    expect(Math.max(...lengths)).toBeLessThan(200);
    expect((await res.json()).response.result.message).toMatch(/^the review holds 400000 objects/);
  });

  it("an object too large: the envelope and that object's metadata are parsed, to name it", async () => {
    const { app } = testApp({ env: { CRDSHIFT_MAX_OBJECT_BYTES: "5000" } });
    const small = cronTab("v1beta1", "small", { hostPort: "h:1" });
    const big = cronTab("v1beta1", "big", { hostPort: "h:1", items: Array(2000).fill({}) });
    const { res, lengths } = await parsedLengths(app, wire(review("example.com/v1", [small, big])));
    expect(Math.max(...lengths)).toBeLessThan(400);
    expect((await res.json()).response.result.message).toBe(
      `object 1 (default/big, uid uid-big) is ${JSON.stringify(big).length} bytes, over this webhook's limit of 5000 per object (CRDSHIFT_MAX_OBJECT_BYTES)`,
    );
  });

  it("a scanned body must be a review as an apiserver writes one: request.objects once, plainly spelled, and little beside it", async () => {
    const { app } = testApp({ env: { CRDSHIFT_MAX_OBJECT_BYTES: "1000" } });
    const sent = wire(
      review(
        "example.com/v1",
        [1, 2, 3].map((i) => cronTab("v1beta1", `c${i}`, { hostPort: "h:1" })),
      ),
    );
    const refused = async (body: string) => {
      const res = await post(app, body);
      expect(res.status).toBe(400);
      return (await res.json()).error;
    };
    expect(await refused(sent.replace('"objects"', '"obj\\u0065cts"'))).toBe(
      "body is not a ConversionReview as an apiserver writes one: no request.objects array found (with its keys spelled plainly)",
    );
    expect(await refused(sent.replace('"objects":', '"objects":[],"objects":'))).toBe(
      "body is not a ConversionReview as an apiserver writes one: request.objects appears more than once",
    );
    expect(await refused(sent.replace('"request":{', `"padding":"${"x".repeat(70_000)}","request":{`))).toMatch(
      /^body is not a ConversionReview as an apiserver writes one: 70\d\d\d characters outside request.objects, over the 65536 a review's envelope may take$/,
    );
    // Text that is not JSON is said to be that, scanned or not.
    expect(await refused(sent.slice(0, 500))).toBe(
      "body is not valid JSON: unexpected end of the text at position 500",
    );
    // A body short enough to be parsed first is read as JSON.parse reads it.
    const { app: defaults } = testApp();
    expect(
      (await (await post(defaults, sent.replace('"objects"', '"obj\\u0065cts"'))).json()).response.result.status,
    ).toBe("Success");
  });
});
