import { describe, expect, it } from "vitest";
import { storedForm } from "../../src/kube/stored-form";

describe("storedForm: an object as the apiserver keeps it after conversion", () => {
  it("keeps of the metadata only labels and annotations, the fields a converter may change", () => {
    const object = {
      apiVersion: "example.com/v1",
      metadata: { name: "a", uid: "1", labels: { app: "web" }, annotations: { note: "x" } },
      spec: { n: 1 },
    };
    expect(storedForm(object)).toEqual({
      apiVersion: "example.com/v1",
      metadata: { labels: { app: "web" }, annotations: { note: "x" } },
      spec: { n: 1 },
    });
    expect(object.metadata.name).toBe("a"); // not changed in place
  });

  it("takes an empty or null map, and no metadata, to be the same as none", () => {
    const none = storedForm({ spec: {} });
    expect(storedForm({ metadata: { labels: {}, annotations: null }, spec: {} })).toEqual(none);
    expect(storedForm({ metadata: {}, spec: {} })).toEqual(none);
    expect(none).toEqual({ metadata: {}, spec: {} });
  });

  it("keeps a field named __proto__ as data, and leaves anything but an object as it is", () => {
    const stored = storedForm(JSON.parse('{"__proto__": {"x": 1}, "spec": {}}')) as object;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(stored, "__proto__")?.value).toEqual({ x: 1 });
    expect(storedForm([1])).toEqual([1]);
    expect(storedForm("text")).toBe("text");
  });
});
