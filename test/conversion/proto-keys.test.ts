import { describe, expect, it } from "vitest";
import * as z from "zod";
import { convertObjects, createRegistry, defineKind } from "../../src/conversion";
import { mayHoldProtoKey } from "../../src/json/proto-keys";
import { decodeJson } from "../../src/json";
import { post, testApp } from "../helpers";

/**
 * A field named `__proto__` holding an object or an array survives a converter that copies it
 * with [[Set]] (`Object.assign({}, rest, …)`): the engine finds the value where the prototype
 * setter put it and makes it a field again.
 */
type Converter = (object: any) => any;

function kindWith(toV2: Converter, toV3: Converter = (o) => ({ ...o })) {
  return defineKind({
    group: "proto.example.com",
    kind: "Box",
    versions: { v1: z.looseObject({}), v2: z.looseObject({}), v3: z.looseObject({}) },
    converters: { v1: { v2: toV2 }, v2: { v1: (o) => o, v3: toV3 }, v3: { v2: (o) => o } },
  });
}

const assignConverter: Converter = ({ size, ...rest }) => Object.assign({}, rest, { width: size });

function body(object: string, to = "v2") {
  return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"proto.example.com/${to}","objects":[${object}]}}\n`;
}

async function convertedOverHttp(toV2: Converter, object: string, to = "v2", toV3?: Converter) {
  const { app } = testApp({ registry: createRegistry([kindWith(toV2, toV3)]) });
  const res = await post(app, body(object, to));
  expect(res.status).toBe(200);
  const text = await res.text();
  const reply = decodeJson(text).value as any;
  expect(reply.response.result).toEqual({ status: "Success" });
  return { text, object: reply.response.convertedObjects[0] };
}

const OBJECT = `{"apiVersion":"proto.example.com/v1","kind":"Box","metadata":{"name":"b"},"__proto__":{"x":"y"},"size":3,"spec":{"list":{"__proto__":[1,{"z":null}]}}}`;

describe("__proto__ fields lost to the prototype setter are put back", () => {
  it("at the top level, by a converter that builds its result with Object.assign({}, rest, …)", async () => {
    const { text, object } = await convertedOverHttp(assignConverter, OBJECT);
    expect(text).toContain('"__proto__":{"x":"y"}');
    expect(Object.hasOwn(object, "__proto__")).toBe(true);
    expect(object).toMatchObject({ width: 3, spec: { list: {} } });
    expect(object.spec.list["__proto__"]).toEqual([1, { z: null }]);
  });

  it("nested, an array value among them, and the result is an ordinary object again", async () => {
    const nested: Converter = ({ spec, ...rest }) =>
      Object.assign({}, rest, { spec: Object.assign({}, spec, { list: Object.assign({}, spec.list) }) });
    const { text } = await convertedOverHttp(nested, OBJECT);
    expect(text).toContain('"spec":{"list":{"__proto__":[1,{"z":null}]}}');
    expect(text).toContain('"__proto__":{"x":"y"}');
  });

  it("in the first step of a chain, when the next step copies only own fields", async () => {
    const { text } = await convertedOverHttp(assignConverter, OBJECT, "v3", (o) => ({ ...o, step: 2 }));
    expect(text).toContain('"__proto__":{"x":"y"}');
    expect(text).toContain('"step":2');
  });

  it("when the key is spelled with JSON escapes (a client other than the apiserver may send it so)", async () => {
    const escaped = OBJECT.replace('"__proto__":{"x"', '"\\u005f\\u005fproto\\u005f\\u005f":{"x"').replace(
      '"list":{"__proto__"',
      '"list":{"__pr\\u006fto__"',
    );
    expect(escaped).not.toContain("__proto__");
    const { text, object } = await convertedOverHttp(assignConverter, escaped);
    expect(text).toContain('"__proto__":{"x":"y"}');
    expect(object.spec.list["__proto__"]).toEqual([1, { z: null }]);
  });

  it("is looked for only where a body could hold the key: Go's escapes (<, >, &) alone do not count", () => {
    expect(mayHoldProtoKey('{"a":"\\u003cb\\u003e \\u0026"}')).toBe(false);
    expect(mayHoldProtoKey('{"\\u005F_proto__":1}')).toBe(true);
    expect(mayHoldProtoKey('{"__proto__":1}')).toBe(true);
  });

  it("is looked for under any escape of any of the key's letters, in either case of hex digit", () => {
    const key = "__proto__";
    for (let at = 0; at < key.length; at++) {
      const hex = key.charCodeAt(at).toString(16).padStart(4, "0");
      for (const digits of [hex, hex.toUpperCase()]) {
        const spelled = `{"${key.slice(0, at)}\\u${digits}${key.slice(at + 1)}":1}`;
        expect(JSON.parse(spelled)).toHaveProperty([key]);
        expect(mayHoldProtoKey(spelled)).toBe(true);
      }
    }
  });

  it("when the engine is called directly, without a body to look at (the CLI, the test kit)", async () => {
    const registry = createRegistry([kindWith(assignConverter)]);
    const result = await convertObjects(registry, "proto.example.com/v2", [decodeJson(OBJECT).value]);
    expect(result.ok).toBe(true);
    const [converted] = result.ok ? result.objects : [];
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(converted!["__proto__"]).toEqual({ x: "y" });
  });

  it("before the converter's result is checked against its schema, so the lost field cannot pass for another", async () => {
    const strict = defineKind({
      group: "proto.example.com",
      kind: "Box",
      versions: { v1: z.looseObject({}), v2: z.looseObject({ width: z.number().optional() }) },
      converters: { v1: { v2: ({ size, ...rest }: any) => Object.assign({}, rest) }, v2: { v1: (o) => o } },
    });
    const { app } = testApp({ registry: createRegistry([strict]) });
    // Read through the prototype, width would be "wide" and fail the v2 schema.
    const res = await post(
      app,
      body(`{"apiVersion":"proto.example.com/v1","kind":"Box","__proto__":{"width":"wide"}}`),
    );
    const text = await res.text();
    expect(text).toContain('"status":"Success"');
    expect(text).toContain('"__proto__":{"width":"wide"}');
  });

  it("leaves alone objects a converter builds with a prototype of its own (dates, null-prototype maps)", async () => {
    const own: Converter = (o) => {
      const map = Object.create(null);
      map.k = "v";
      return { ...o, when: new Date(0), map };
    };
    const { object } = await convertedOverHttp(own, OBJECT);
    expect(object).toMatchObject({ when: "1970-01-01T00:00:00.000Z", map: { k: "v" } });
    expect(Object.keys(object.map)).toEqual(["k"]);
  });
});
