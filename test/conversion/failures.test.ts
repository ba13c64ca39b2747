import { describe, expect, it } from "vitest";
import * as z from "zod";
import { convertObjects, createRegistry, defineKind } from "../../src/conversion";
import { convertFails, convertOk, cronTab, review, testApp } from "../helpers";

const spec = z.looseObject({ spec: z.looseObject({ size: z.number().optional() }).optional() });

function widgetApp(v1ToV2: (o: any) => any, extra: Record<string, unknown> = {}) {
  const kind = defineKind({
    group: "fail.example.com",
    kind: "Widget",
    versions: { v1: spec, v2: spec, v3: spec },
    converters: { v1: { v2: v1ToV2 }, v2: { v1: (o) => o, v3: (o) => o }, v3: { v2: (o) => o } },
    ...extra,
  });
  return testApp({ registry: createRegistry([kind]) }).app;
}
const widget = (version: string, name: string, specValue: unknown = { size: 1 }) => ({
  apiVersion: `fail.example.com/${version}`,
  kind: "Widget",
  metadata: { name, namespace: "ns", uid: `uid-${name}` },
  spec: specValue,
});

describe("failures fail the whole review, with a message naming the object and the cause", () => {
  it("a converter that throws", async () => {
    const app = widgetApp(() => {
      throw new Error("size must be positive");
    });
    const message = await convertFails(
      app,
      review("fail.example.com/v2", [widget("v2", "ok"), widget("v1", "broken")]),
    );
    expect(message).toBe(
      "object 1 (ns/broken, uid uid-broken) Widget fail.example.com/v1 -> fail.example.com/v2: size must be positive",
    );
  });

  it("a converter that throws something that is not an Error", async () => {
    const app = widgetApp(() => {
      throw 42;
    });
    expect(await convertFails(app, review("fail.example.com/v2", [widget("v1", "a")]))).toMatch(
      /: the converter threw 42$/,
    );
  });

  it("a converter whose promise rejects, and the step of a longer chain", async () => {
    const app = widgetApp(async () => {
      throw new Error("lookup failed");
    });
    expect(await convertFails(app, review("fail.example.com/v3", [widget("v1", "a")]))).toBe(
      "object 0 (ns/a, uid uid-a) Widget fail.example.com/v1 -> fail.example.com/v3: lookup failed (in step v1 -> v2)",
    );
  });

  it("a converter that returns something that is not an object", async () => {
    for (const [value, word] of [
      [null, "null"],
      [[1], "an array"],
      ["x", "string"],
      [undefined, "undefined"],
    ] as const) {
      const message = await convertFails(
        widgetApp(() => value),
        review("fail.example.com/v2", [widget("v1", "a")]),
      );
      expect(message).toBe(
        `object 0 (ns/a, uid uid-a) Widget fail.example.com/v1 -> fail.example.com/v2: the converter returned ${word}, not an object`,
      );
    }
  });

  it("a converter whose result does not match the target version's schema", async () => {
    const app = widgetApp((o) => ({ ...o, spec: { size: "big" } }));
    expect(await convertFails(app, review("fail.example.com/v2", [widget("v1", "a")]))).toBe(
      "object 0 (ns/a, uid uid-a) Widget fail.example.com/v1 -> fail.example.com/v2: the converter's result does not match the v2 schema: spec.size: expected number, received string",
    );
  });

  it("a source object that does not match its version's schema", async () => {
    const app = widgetApp((o) => o);
    expect(await convertFails(app, review("fail.example.com/v2", [widget("v1", "a", { size: "big" })]))).toBe(
      "object 0 (ns/a, uid uid-a) Widget fail.example.com/v1 -> fail.example.com/v2: does not match the v1 schema: spec.size: expected number, received string",
    );
  });

  it("an unknown kind, an unknown version, another group, and a bad desiredAPIVersion", async () => {
    const app = widgetApp((o) => o);
    const gadget = { ...widget("v1", "g"), kind: "Gadget" };
    expect(await convertFails(app, review("fail.example.com/v2", [gadget]))).toBe(
      "object 0 (ns/g, uid uid-g) Gadget fail.example.com/v1 -> fail.example.com/v2: this webhook has no converters for Gadget in group fail.example.com (it serves Widget.fail.example.com)",
    );
    expect(await convertFails(app, review("fail.example.com/v9", [widget("v1", "a")]))).toBe(
      "object 0 (ns/a, uid uid-a) Widget fail.example.com/v1 -> fail.example.com/v9: v9 is not a version of Widget.fail.example.com (known: v1, v2, v3)",
    );
    expect(await convertFails(app, review("fail.example.com/v1", [widget("v0", "a")]))).toMatch(
      /: v0 is not a version of Widget/,
    );
    expect(await convertFails(app, review("other.example.com/v1", [widget("v1", "a")]))).toMatch(
      /: cannot convert between API groups fail\.example\.com and other\.example\.com$/,
    );
    expect(await convertFails(app, review("v1", [widget("v1", "a")]))).toBe(
      'desiredAPIVersion "v1" is not of the form group/version',
    );
  });

  it("an object without apiVersion or kind", async () => {
    const app = widgetApp((o) => o);
    const { apiVersion: _a, ...noVersion } = widget("v1", "a");
    expect(await convertFails(app, review("fail.example.com/v2", [noVersion]))).toBe(
      "object 0 (ns/a, uid uid-a): apiVersion is missing, expected group/version",
    );
    const { kind: _k, ...noKind } = widget("v1", "a");
    expect(await convertFails(app, review("fail.example.com/v2", [noKind]))).toBe(
      "object 0 (ns/a, uid uid-a): kind is missing",
    );
  });

  it("the next request is unaffected by a failed one", async () => {
    let calls = 0;
    const app = widgetApp((o) => {
      if (calls++ === 0) throw new Error("first call fails");
      return o;
    });
    await convertFails(app, review("fail.example.com/v2", [widget("v1", "a")]));
    await convertOk(app, review("fail.example.com/v2", [widget("v1", "a")]));
  });
});

describe("the cause says whose fault a failure is", () => {
  const registryWith = (v1: z.ZodType, v2: z.ZodType) =>
    createRegistry([
      defineKind({
        group: "fail.example.com",
        kind: "Widget",
        versions: { v1, v2 },
        converters: { v1: { v2: (o: any) => o }, v2: { v1: (o: any) => o } },
      }),
    ]);
  const throwing = spec.refine(() => {
    throw new Error("the refinement broke");
  });

  it("a schema whose own code throws while checking the object: the object's schema, not crdshift", async () => {
    const result = await convertObjects(registryWith(throwing, spec), "fail.example.com/v2", [widget("v1", "a")]);
    expect(result).toMatchObject({
      ok: false,
      cause: "schema-mismatch",
      message:
        "object 0 (ns/a, uid uid-a) Widget fail.example.com/v1 -> fail.example.com/v2: does not match the v1 schema: checking it threw Error: the refinement broke",
    });
  });

  it("a target schema whose own code throws while checking the converter's result: the converter's side", async () => {
    const result = await convertObjects(registryWith(spec, throwing), "fail.example.com/v2", [widget("v1", "a")]);
    expect(result).toMatchObject({
      ok: false,
      cause: "converter-error",
      message: expect.stringMatching(
        /: the converter's result does not match the v2 schema: checking it threw Error: the refinement broke$/,
      ),
    });
  });

  it("a converter that throws a TypeError: its own bug, with what it threw", async () => {
    const registry = createRegistry([
      defineKind({
        group: "fail.example.com",
        kind: "Widget",
        versions: { v1: spec, v2: spec },
        converters: {
          v1: { v2: (o) => (o as any).missing.field },
          v2: { v1: (o) => o },
        },
      }),
    ]);
    const result = await convertObjects(registry, "fail.example.com/v2", [widget("v1", "a")]);
    expect(result).toMatchObject({ ok: false, cause: "converter-error", thrown: expect.any(TypeError) });
  });

  it("a kind whose schema is recursive (zod's getters) converts, its trees checked by zod", async () => {
    const node: z.ZodType = z.looseObject({
      name: z.string(),
      get children() {
        return z.array(node).optional();
      },
    });
    const tree = z.looseObject({ spec: node.optional() });
    const deep = { name: "root", children: [{ name: "leaf" }] };
    const result = await convertObjects(registryWith(tree, tree), "fail.example.com/v2", [
      { ...widget("v1", "a"), spec: deep },
    ]);
    expect(result).toMatchObject({ ok: true, objects: [{ spec: deep }] });
    const broken = await convertObjects(registryWith(tree, tree), "fail.example.com/v2", [
      { ...widget("v1", "a"), spec: { name: "root", children: [{ name: 1 }] } },
    ]);
    expect(broken).toMatchObject({ ok: false, cause: "schema-mismatch" });
  });
});

describe("the batch", () => {
  it("keeps the order of mixed source versions and converts each on its own", async () => {
    const { app } = testApp();
    const objects = [
      cronTab("v1alpha1", "a", { endpoint: "a:1" }),
      cronTab("v1", "b", { host: "b", port: "2" }),
      cronTab("v1beta1", "c", { hostPort: "c:3" }),
      cronTab("v1alpha1", "d", { endpoint: "[::1]:4" }),
    ];
    const { reply } = await convertOk(app, review("example.com/v1beta1", objects));
    expect(reply.response.convertedObjects.map((o: any) => [o.metadata.name, o.apiVersion, o.hostPort])).toEqual([
      ["a", "example.com/v1beta1", "a:1"],
      ["b", "example.com/v1beta1", "b:2"],
      ["c", "example.com/v1beta1", "c:3"],
      ["d", "example.com/v1beta1", "[::1]:4"],
    ]);
  });

  it("an object already at the desired version only gets its apiVersion", async () => {
    const { app } = testApp();
    const same = cronTab("v1", "s", { host: "h", port: "1", whatever: { keep: true } });
    const { reply } = await convertOk(app, review("example.com/v1", [same]));
    expect(reply.response.convertedObjects[0]).toEqual(same);
  });

  it("partial objects, without the converted fields, convert without error", async () => {
    const { app } = testApp();
    const partial = { apiVersion: "example.com/v1alpha1", kind: "CronTab", metadata: { name: "p" } };
    const { reply } = await convertOk(
      app,
      review("example.com/v1", [partial, { apiVersion: "example.com/v1beta1", kind: "CronTab" }]),
    );
    expect(reply.response.convertedObjects).toEqual([
      { apiVersion: "example.com/v1", kind: "CronTab", metadata: { name: "p" } },
      { apiVersion: "example.com/v1", kind: "CronTab", metadata: {} },
    ]);
  });

  it("async converters work, and each review is independent under concurrency", async () => {
    const kind = defineKind({
      group: "async.example.com",
      kind: "Slow",
      versions: { v1: z.looseObject({ n: z.number() }), v2: z.looseObject({ m: z.number() }) },
      converters: {
        v1: { v2: async ({ n, ...rest }) => (await new Promise((r) => setTimeout(r, n % 3)), { ...rest, m: n }) },
        v2: { v1: async ({ m, ...rest }) => ({ ...rest, n: m }) },
      },
    });
    const { app } = testApp({ registry: createRegistry([kind]) });
    const runs = Array.from({ length: 20 }, (_, r) =>
      convertOk(
        app,
        review(
          "async.example.com/v2",
          Array.from({ length: 5 }, (_, i) => ({
            apiVersion: "async.example.com/v1",
            kind: "Slow",
            metadata: { name: `${r}-${i}` },
            n: r * 10 + i,
          })),
        ),
      ),
    );
    for (const [r, { reply }] of (await Promise.all(runs)).entries()) {
      expect(reply.response.convertedObjects.map((o: any) => o.m)).toEqual([0, 1, 2, 3, 4].map((i) => r * 10 + i));
    }
  });

  it("a review past its budget fails cleanly, saying how far it got", async () => {
    let clock = 0;
    const kind = defineKind({
      group: "slow.example.com",
      kind: "Tick",
      versions: { v1: z.looseObject({}), v2: z.looseObject({}) },
      converters: { v1: { v2: (o) => ((clock += 10), o) }, v2: { v1: (o) => o } },
    });
    const { app } = testApp({ registry: createRegistry([kind]), env: { CRDSHIFT_BUDGET_MS: "25" }, now: () => clock });
    const objects = Array.from({ length: 10 }, (_, i) => ({
      apiVersion: "slow.example.com/v1",
      kind: "Tick",
      metadata: { name: `t${i}` },
    }));
    expect(await convertFails(app, review("slow.example.com/v2", objects))).toBe(
      "conversion budget of 25 ms exceeded after 3 of 10 objects (Tick slow.example.com/v1 -> slow.example.com/v2)",
    );
  });
});
