import { describe, expect, it, vi } from "vitest";
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
  // the size limit are scanned first (src/conversion/convert-review.ts): both must say the same.
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
    expect(lengths.length, "JSON.parse was never called").toBeGreaterThan(0);
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
    expect(lengths.length, "JSON.parse was never called").toBeGreaterThan(0);
    expect(Math.max(...lengths)).toBeLessThan(200);
    expect((await res.json()).response.result.message).toMatch(/^the review holds 400000 objects/);
  });

  it("an object too large: the envelope and that object's metadata are parsed, to name it", async () => {
    const { app } = testApp({ env: { CRDSHIFT_MAX_OBJECT_BYTES: "5000" } });
    const small = cronTab("v1beta1", "small", { hostPort: "h:1" });
    const big = cronTab("v1beta1", "big", { hostPort: "h:1", items: Array(2000).fill({}) });
    const { res, lengths } = await parsedLengths(app, wire(review("example.com/v1", [small, big])));
    expect(lengths.length, "JSON.parse was never called").toBeGreaterThan(0);
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
