import * as z from "zod";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeJson, encodeJson } from "../../src/protocol";
import { createRegistry, defineKind } from "../../src/registry";
import { post, testApp } from "../helpers";

const quantity = defineKind({
  group: "int.example.com",
  kind: "Counter",
  versions: {
    v1: z.looseObject({ spec: z.looseObject({ total: z.union([z.number(), z.bigint()]).optional() }).optional() }),
    v2: z.looseObject({ spec: z.looseObject({ count: z.union([z.number(), z.bigint()]).optional() }).optional() }),
  },
  converters: {
    v1: { v2: ({ spec, ...rest }) => ({ ...rest, spec: { count: spec?.total } }) },
    v2: { v1: ({ spec, ...rest }) => ({ ...rest, spec: { total: spec?.count } }) },
  },
});

function body(total: string, extra = "") {
  return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"int.example.com/v2","objects":[{"apiVersion":"int.example.com/v1","kind":"Counter","metadata":{"name":"c"},"spec":{"total":${total}},"status":{"big":${total},"list":[${total},1.5,-0,1e400]${extra}}}]}}\n`;
}

describe("integers beyond 2^53 come back byte-exact", () => {
  const { app } = testApp({ registry: createRegistry([quantity]) });

  for (const total of ["9007199254740993", "-9223372036854775808", "9223372036854775807", "123456789012345678901234567890"]) {
    it(`${total}, converted by a converter and passed through untouched`, async () => {
      const res = await post(app, body(total));
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).toContain(`"spec":{"count":${total}}`);
      expect(text).toContain(`"big":${total},"list":[${total},1.5,0,null]`);
    });
  }

  it("converters see them as bigint", async () => {
    let seen: unknown;
    const spy = defineKind({
      group: "spy.example.com",
      kind: "Spy",
      versions: { v1: z.looseObject({}), v2: z.looseObject({}) },
      converters: { v1: { v2: (o) => ((seen = (o as any).n), o) }, v2: { v1: (o) => o } },
    });
    const res = await post(testApp({ registry: createRegistry([spy]) }).app, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"spy.example.com/v2","objects":[{"apiVersion":"spy.example.com/v1","kind":"Spy","n":18446744073709551615}]}}`);
    expect(res.status).toBe(200);
    expect(seen).toBe(18446744073709551615n);
  });

  it("a 16-digit run inside a string takes the exact path and changes nothing", () => {
    const text = '{"a":"1234567890123456","b":12,"c":[1.25,true,null]}';
    expect(decodeJson(text).lossless).toBe(true);
    expect(encodeJson(decodeJson(text).value, true)).toBe(text);
  });

  it("property: any int64 and any safe number survive decode + encode exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.double({ noNaN: true, noDefaultInfinity: true }), (big, double) => {
        const text = `{"i":${big},"d":${JSON.stringify(double)}}`;
        const decoded = decodeJson(text);
        expect(encodeJson(decoded.value, decoded.lossless)).toBe(`{"i":${big},"d":${JSON.stringify(double === 0 ? 0 : double)}}`);
      }),
    );
  });

  it("duplicate keys: the last one wins, on both paths, as in the apiserver", () => {
    expect(decodeJson('{"a":1,"a":2}').value).toEqual({ a: 2 });
    expect(decodeJson('{"a":1,"a":9007199254740993}').value).toEqual({ a: 9007199254740993n });
  });

  it("a body nested deeper than CRDSHIFT_MAX_DEPTH (1,000 by default) is a clean 400, before any conversion", async () => {
    const deep = "[".repeat(1500) + "]".repeat(1500);
    const res = await post(app, body("1", `,"deep":${deep}`));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "body is nested 1505 levels deep, over the limit of 1000 (CRDSHIFT_MAX_DEPTH)" });
    // Brackets inside strings are text, not nesting.
    expect((await post(app, body("1", `,"text":${JSON.stringify(deep)}`))).status).toBe(200);
  });
});

describe("with the depth limit raised, the safety nets below it still hold", () => {
  const { app } = testApp({ registry: createRegistry([quantity]), env: { CRDSHIFT_MAX_DEPTH: "100000" } });
  it("deep nesting on the exact path is a clean 400", async () => {
    const deep = "[".repeat(20000) + "]".repeat(20000);
    const res = await post(app, body("9007199254740993", `,"deep":${deep}`));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "body is nested too deeply" });
  });

  it("deep nesting inside metadata is a clean Failure naming the object", async () => {
    const deep = "[".repeat(50000) + "]".repeat(50000);
    const text = body("1").replace('"metadata":{"name":"c"}', `"metadata":{"name":"c","ownerReferences":${deep}}`);
    const res = await post(app, text);
    expect(res.status).toBe(200);
    expect((await res.json()).response.result.message).toBe("object 0 (c): nested too deeply to convert");
  });

  it("deep nesting on the fast path is a clean Failure", async () => {
    const deep = "[".repeat(20000) + "]".repeat(20000);
    const res = await post(app, body("1", `,"deep":${deep}`));
    expect(res.status).toBe(200);
    const reply = await res.json();
    expect(reply.response.result.status).toBe("Failure");
    expect(reply.response.result.message).toBe("object 0 (c): nested too deeply to be serialized");
  });
});
