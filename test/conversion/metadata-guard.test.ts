import { describe, expect, it } from "vitest";
import * as z from "zod";
import { createRegistry, defineKind } from "../../src/conversion";
import { checkReply } from "../../src/kube/apiserver/apiserver-checks";
import { convertFails, convertOk, post, review, testApp, wire } from "../helpers";

/** A kind whose v1 -> v2 converter does whatever the test asks to the object. */
function appWith(mutate: (object: any) => any) {
  const kind = defineKind({
    group: "guard.example.com",
    kind: "Widget",
    versions: { v1: z.looseObject({}), v2: z.looseObject({}) },
    converters: { v1: { v2: (o) => mutate(o) }, v2: { v1: (o) => o } },
  });
  return testApp({ registry: createRegistry([kind]) }).app;
}

const widget = (metadata: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) => ({
  apiVersion: "guard.example.com/v1",
  kind: "Widget",
  ...(metadata === undefined ? {} : { metadata }),
  ...extra,
});

const META = {
  name: "w",
  namespace: "ns",
  uid: "u-1",
  generation: 3,
  finalizers: ["keep.example.com/f"],
  ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: "o-1" }],
  labels: { app: "w" },
  annotations: { "example.com/note": "hello" },
};
const copy = () => structuredClone(META);

describe("metadata guard: converters cannot change metadata except labels and annotations", () => {
  const leaks: Array<[string, (o: any) => any]> = [
    [
      "renames the object",
      (o) => ({ ...o, metadata: { ...o.metadata, name: "other", namespace: "elsewhere", uid: "u-2" } }),
    ],
    ["changes the generation", (o) => ((o.metadata.generation = 42), o)],
    ["reassigns finalizers", (o) => ((o.metadata.finalizers = ["evil.example.com/f"]), o)],
    ["pushes to finalizers in place", (o) => (o.metadata.finalizers.push("evil.example.com/f"), o)],
    ["edits an owner reference in place", (o) => ((o.metadata.ownerReferences[0].name = "hijack"), o)],
    ["deletes the uid", (o) => (delete o.metadata.uid, o)],
    ["adds unknown metadata", (o) => ((o.metadata.garbage = true), (o.metadata.resourceVersion = "9"), o)],
    ["changes the kind", (o) => ({ ...o, kind: "Gadget" })],
  ];
  for (const [what, mutate] of leaks) {
    it(`a converter that ${what} cannot leak it`, async () => {
      const sent = review("guard.example.com/v2", [widget(copy())]);
      const { objects, reply } = await convertOk(appWith(mutate), sent);
      expect(reply.response.convertedObjects[0].metadata).toEqual(META);
      expect(reply.response.convertedObjects[0].kind).toBe("Widget");
      expect(objects[0]!.metadata).toEqual(META);
    });
  }

  it("labels and annotations a converter sets are kept", async () => {
    const sent = review("guard.example.com/v2", [widget(copy())]);
    const { reply } = await convertOk(
      appWith((o) => ({
        ...o,
        metadata: { ...o.metadata, labels: { app: "w", tier: "x" }, annotations: { "example.com/v": "2" } },
      })),
      sent,
    );
    expect(reply.response.convertedObjects[0].metadata.labels).toEqual({ app: "w", tier: "x" });
    expect(reply.response.convertedObjects[0].metadata.annotations).toEqual({ "example.com/v": "2" });
  });

  it("labels and annotations survive a converter that drops them, or all metadata", async () => {
    for (const mutate of [
      (o: any) => ({ spec: o.spec }),
      (o: any) => ({ ...o, metadata: { name: "w" } }),
      (o: any) => ({ ...o, metadata: "oops" }),
    ]) {
      const { reply, objects } = await convertOk(
        appWith(mutate),
        review("guard.example.com/v2", [widget(copy(), { spec: { a: 1 } })]),
      );
      expect(reply.response.convertedObjects[0].metadata).toEqual(META);
      expect(objects[0]!.metadata).toEqual(META); // the apiserver would have deleted them otherwise
    }
  });

  it("an explicit empty map clears labels", async () => {
    const { reply } = await convertOk(
      appWith((o) => ({ ...o, metadata: { ...o.metadata, labels: {} } })),
      review("guard.example.com/v2", [widget(copy())]),
    );
    expect(reply.response.convertedObjects[0].metadata.labels).toEqual({});
  });

  it("an invalid label fails with the apiserver's rule, naming the object", async () => {
    const message = await convertFails(
      appWith((o) => ((o.metadata.labels["bad key!"] = "v"), o)),
      review("guard.example.com/v2", [widget(copy())]),
    );
    expect(message).toBe(
      "object 0 (ns/w, uid u-1) Widget guard.example.com/v1 -> guard.example.com/v2: metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  });

  it("an invalid label value, a non-string value and a non-object map fail too", async () => {
    const cases: Array<[(o: any) => any, RegExp]> = [
      [
        (o) => ((o.metadata.labels.app = "x".repeat(64)), o),
        /metadata\.labels: Invalid value: "x+": must be no more than 63 characters/,
      ],
      [(o) => ((o.metadata.annotations.n = 5), o), /metadata\.annotations\[n\] must be a string, but is int64/],
      [
        (o) => ((o.metadata.labels = ["a"]), o),
        /invalid metadata\.labels of type \[\]interface \{\} in converted object/,
      ],
    ];
    for (const [mutate, pattern] of cases) {
      expect(await convertFails(appWith(mutate), review("guard.example.com/v2", [widget(copy())]))).toMatch(pattern);
    }
  });

  it("annotation keys are checked lower-cased, as the apiserver does: upper case is fine there", async () => {
    const upper = (o: any) => ((o.metadata.annotations["Example.com/Note"] = "ok"), o);
    const { reply } = await convertOk(appWith(upper), review("guard.example.com/v2", [widget(copy())]));
    expect(reply.response.convertedObjects[0].metadata.annotations["Example.com/Note"]).toBe("ok");
  });

  it("annotations over 256 KiB in total fail", async () => {
    const big = (o: any) => ((o.metadata.annotations["example.com/big"] = "x".repeat(256 * 1024)), o);
    expect(await convertFails(appWith(big), review("guard.example.com/v2", [widget(copy())]))).toMatch(
      /metadata\.annotations: Too long: must have at most 262144 bytes/,
    );
    const fits = (o: any) => ((o.metadata.annotations = { "example.com/big": "x".repeat(256 * 1024 - 15) }), o);
    await convertOk(appWith(fits), review("guard.example.com/v2", [widget(copy())]));
  });

  it("metadata is always present: an empty object for a metadata-less fragment", async () => {
    const { reply } = await convertOk(
      appWith((o) => o),
      review("guard.example.com/v2", [widget(undefined, { spec: { a: 1 } })]),
    );
    expect(reply.response.convertedObjects[0]).toEqual({
      apiVersion: "guard.example.com/v2",
      kind: "Widget",
      metadata: {},
      spec: { a: 1 },
    });
    // metadata: null in the input (kubernetes#117356): we still answer with {}, though the
    // apiserver then fails on its own side ("invalid metadata of type <nil> in input object").
    const sent = review("guard.example.com/v2", [{ ...widget(undefined), metadata: null }]);
    const res = await post(
      appWith((o) => o),
      wire(sent),
    );
    const nulled = await res.json();
    expect(nulled.response.result.status).toBe("Success");
    expect(nulled.response.convertedObjects[0].metadata).toEqual({});
    expect(checkReply(sent, 200, JSON.stringify(nulled))).toEqual({
      ok: false,
      error:
        "conversion webhook for guard.example.com/v1, Kind=Widget returned invalid metadata: invalid metadata of type <nil> in input object",
    });
  });

  it("keeps status and unknown fields the converter passes along", async () => {
    const object = widget(copy(), { spec: { a: 1, future: [1, 2] }, status: { phase: "Ready" }, extra: "x" });
    const { reply } = await convertOk(
      appWith((o) => o),
      review("guard.example.com/v2", [object]),
    );
    expect(reply.response.convertedObjects[0]).toEqual({ ...object, apiVersion: "guard.example.com/v2" });
  });

  it("__proto__ keys are plain data, on the way in and out", async () => {
    const body = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"guard.example.com/v2","objects":[{"apiVersion":"guard.example.com/v1","kind":"Widget","metadata":{"name":"w","__proto__":{"polluted":true},"labels":{"__proto__":"x"}},"spec":{"__proto__":{"polluted":true}}}]}}`;
    const ok = await appWith((o) => o).request("http://x/convert", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    expect(ok.status).toBe(200);
    const text = await ok.text();
    expect(text).toContain('"spec":{"__proto__":{"polluted":true}}');
    expect(text).toContain('"__proto__":{"polluted":true}');
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
  });
});
