import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createRegistry, defineKind } from "../../src/conversion";
import { convertOk, cronTab, post, review, testApp, wire } from "../helpers";

/**
 * No value comes back changed without a word. The apiserver holds numbers as int64 or float64;
 * it can send neither `1e400` (JSON.parse: Infinity, printed null) nor `1e-400` (0), but were
 * one sent, the object holding it fails, named, rather than come back altered.
 */
const objectWith = (number: string, name = "c") =>
  wire(
    review("example.com/v1", [
      cronTab("v1beta1", "a", { hostPort: "h:1" }),
      cronTab("v1beta1", name, { hostPort: "h:1", spec: { n: 0 } }),
    ]),
  ).replace('"spec":{"n":0}', `"spec":{"n":${number}}`);

describe("numbers beyond a double's range", () => {
  for (const [path, env] of [
    ["parsed first", {}],
    ["scanned first", { CRDSHIFT_MAX_OBJECT_BYTES: "1000" }],
  ] as const) {
    const { app } = testApp({ env });
    for (const number of ["1e400", "-1E+400", "1e-400", `${"9".repeat(400)}.5`, `0.${"0".repeat(400)}1`, "4e-325"]) {
      it(`${number.length > 12 ? `${number.slice(0, 8)}… (${number.length} characters)` : number}: a Failure naming the object (${path})`, async () => {
        const res = await post(app, objectWith(number));
        expect(res.status).toBe(200);
        expect((await res.json()).response.result).toEqual({
          status: "Failure",
          message:
            "object 1 (default/c, uid uid-c): holds a number beyond the range of a 64-bit float (such as 1e400 or 1e-400), which would not come back unchanged; the apiserver never sends one",
        });
      });
    }

    it(`numbers within range come back as the apiserver would print them (${path})`, async () => {
      const res = await post(app, objectWith("[1e308,-5e-324,1E+21,0e400,-0.0e-999,1.5e-300,100e-2]"));
      expect(await res.text()).toContain('"spec":{"n":[1e+308,-5e-324,1e+21,0,0,1.5e-300,1]}');
    });
  }

  it("one outside the objects concerns no object: the review converts", async () => {
    const { app } = testApp();
    const body = objectWith("1").replace('"request":{', '"request":{"extra":[1e400],');
    const res = await post(app, body);
    expect((await res.json()).response.result).toEqual({ status: "Success" });
  });
});

describe("what a converter returns that JSON cannot carry", () => {
  const odd = defineKind({
    group: "odd.example.com",
    kind: "Odd",
    versions: { v1: z.looseObject({}), v2: z.looseObject({}) },
    converters: {
      v1: {
        // A converter that parses a string it did not expect: Number("abc") is NaN.
        v2: (object) => {
          const raw = (object as { raw?: string }).raw;
          if (raw === "cycle") {
            const self: Record<string, unknown> = { ...object };
            self.spec = { back: self };
            return self as never;
          }
          return { ...object, spec: { list: [1, { value: Number(raw) }] } };
        },
      },
      v2: { v1: (object) => object },
    },
  });
  const { app } = testApp({ registry: createRegistry([odd]) });
  const sent = (raw: string) =>
    review("odd.example.com/v2", [
      { apiVersion: "odd.example.com/v1", kind: "Odd", metadata: { name: "o", namespace: "ns" }, raw },
    ]);

  it("a number converts", async () => {
    const { objects } = await convertOk(app, sent("12"));
    expect(objects[0]).toMatchObject({ spec: { list: [1, { value: 12 }] } });
  });

  for (const [raw, what] of [
    ["abc", "NaN"],
    ["Infinity", "Infinity"],
  ] as const) {
    it(`${what} is not passed off as null: a Failure naming the object and the field`, async () => {
      const res = await post(app, wire(sent(raw)));
      expect((await res.json()).response.result).toEqual({
        status: "Failure",
        message: `object 0 (ns/o) Odd odd.example.com/v1 -> odd.example.com/v2: the converter's result holds ${what} at spec.list[1].value, which JSON cannot carry (it would arrive as null)`,
      });
    });
  }

  it("a result that refers to itself: a Failure naming the object, not an HTTP 500", async () => {
    const res = await post(app, wire(sent("cycle")));
    expect(res.status).toBe(200);
    expect((await res.json()).response.result).toEqual({
      status: "Failure",
      message:
        "object 0 (ns/o) Odd odd.example.com/v1 -> odd.example.com/v2: the converter's result refers to itself: spec.back is the result itself",
    });
  });
});

describe("a body that is not JSON", () => {
  it("is refused with where and what went wrong, and nothing of its text, in the reply and the log", async () => {
    const { app, logs } = testApp();
    const body =
      '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"dbPassword":"hunter2-s3cret","x":NaN}}';
    const res = await post(app, body);
    expect(res.status).toBe(400);
    const error = `body is not valid JSON: unexpected character where a value should start at position ${body.indexOf("NaN")}`;
    expect(await res.json()).toEqual({ error });
    expect(logs).toEqual([expect.objectContaining({ msg: "request rejected", error })]);
    expect(JSON.stringify(logs)).not.toContain("hunter2");
  });
});
