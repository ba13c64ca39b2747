import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { decodeJson, encodeJson } from "../../src/json";
import { createRegistry, defineKind } from "../../src/conversion";
import { post, testApp } from "../helpers";
import { counterKind, counterReview } from "./counter-review";

const quantity = counterKind("int.example.com");

const body = (total: string, extra = "") => counterReview("int.example.com", total, extra);

describe("integers beyond 2^53 come back byte-exact", () => {
  const { app } = testApp({ registry: createRegistry([quantity]) });

  for (const total of [
    "9007199254740993",
    "-9223372036854775808",
    "9223372036854775807",
    "123456789012345678901234567890",
  ]) {
    it(`${total}, converted by a converter and passed through untouched`, async () => {
      const res = await post(app, body(total));
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).toContain(`"spec":{"count":${total}}`);
      expect(text).toContain(`"big":${total},"list":[${total},1.5,0,1e+300]`);
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
    const res = await post(
      testApp({ registry: createRegistry([spy]) }).app,
      `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"spy.example.com/v2","objects":[{"apiVersion":"spy.example.com/v1","kind":"Spy","n":18446744073709551615}]}}`,
    );
    expect(res.status).toBe(200);
    expect(seen).toBe(18446744073709551615n);
  });

  it("a 16-digit run inside a string changes nothing", () => {
    const text = '{"a":"1234567890123456","b":12,"c":[1.25,true,null],"d":1234567890123456e-3}';
    const decoded = decodeJson(text);
    expect(decoded.lossless).toBe(false);
    expect(encodeJson(decoded.value)).toBe(
      '{"a":"1234567890123456","b":12,"c":[1.25,true,null],"d":1234567890123.456}',
    );
  });

  it("property: any int64 and any safe number survive decode + encode exactly", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (big, double) => {
          const text = `{"i":${big},"d":${JSON.stringify(double)}}`;
          const decoded = decodeJson(text);
          expect(encodeJson(decoded.value, decoded.lossless)).toBe(
            `{"i":${big},"d":${JSON.stringify(double === 0 ? 0 : double)}}`,
          );
        },
      ),
    );
  });

  it("duplicate keys: the last one wins, on both paths, as in the apiserver", () => {
    expect(decodeJson('{"a":1,"a":2}').value).toEqual({ a: 2 });
    expect(decodeJson('{"a":1,"a":9007199254740993}').value).toEqual({ a: 9007199254740993n });
  });
});
