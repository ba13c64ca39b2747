import { describe, expect, it } from "vitest";
import { STASH_ANNOTATION, stashFields, unstashFields } from "../../src/conversion";
import { convertFails, convertOk, cronTab, review, testApp } from "../helpers";

const { app } = testApp();

describe("lossless round trips through the stash annotation (example.com v1 protocol)", () => {
  it("v1 -> v1alpha1 -> v1 keeps protocol, and the annotation is gone once it is back", async () => {
    const v1 = cronTab(
      "v1",
      "web",
      { host: "example.com", port: "443", protocol: "TCP" },
      { annotations: { "team.example.com/owner": "ops" } },
    );
    const down = await convertOk(app, review("example.com/v1alpha1", [v1]));
    const old = down.objects[0] as any;
    expect(old).toMatchObject({ apiVersion: "example.com/v1alpha1", endpoint: "example.com:443" });
    expect(old).not.toHaveProperty("protocol");
    expect(old.metadata.annotations).toEqual({
      "team.example.com/owner": "ops",
      [STASH_ANNOTATION]: '{"protocol":"TCP"}',
    });

    const up = await convertOk(app, review("example.com/v1", [old]));
    const back = up.objects[0] as any;
    expect(back).toMatchObject({ host: "example.com", port: "443", protocol: "TCP" });
    expect(back.metadata.annotations).toEqual({ "team.example.com/owner": "ops" });
  });

  it("adds nothing when there is nothing to keep", async () => {
    const down = await convertOk(app, review("example.com/v1beta1", [cronTab("v1", "web", { host: "h", port: "1" })]));
    expect((down.objects[0] as any).metadata).not.toHaveProperty("annotations");
  });

  it("fails clearly when the annotations would exceed the apiserver's 256 KiB", async () => {
    const big = cronTab("v1", "big", { host: "h", port: "1", protocol: "x".repeat(300 * 1024) });
    expect(await convertFails(app, review("example.com/v1beta1", [big]))).toBe(
      "object 0 (default/big, uid uid-big) CronTab example.com/v1 -> example.com/v1beta1: cannot keep protocol for the way back: the annotations would take 307232 bytes, over the apiserver's limit of 262144",
    );
  });

  it("refuses an annotation edited into something crdshift did not write", () => {
    const edited = { metadata: { annotations: { [STASH_ANNOTATION]: "{oops" } } };
    expect(() => unstashFields(edited)).toThrow(
      `annotation ${STASH_ANNOTATION} is not the JSON crdshift wrote; was it edited by hand?`,
    );
  });

  it("merges what several hops keep, and clears an emptied map explicitly", () => {
    const once = stashFields({ metadata: {} }, { a: 1 });
    const twice = stashFields(once, { b: [2] });
    const { object, fields } = unstashFields(twice);
    expect(fields).toEqual({ a: 1, b: [2] });
    expect(object.metadata).toEqual({ annotations: {} });
  });

  it("keeps integers beyond 2^53 exact, as bigint, both ways", () => {
    const stashed = stashFields(
      { metadata: {} },
      { replicasMax: 9223372036854775807n, floor: [-9007199254740993n, 1] },
    );
    expect((stashed as any).metadata.annotations).toEqual({
      [STASH_ANNOTATION]: '{"replicasMax":9223372036854775807,"floor":[-9007199254740993,1]}',
    });
    expect(unstashFields(stashed).fields).toEqual({
      replicasMax: 9223372036854775807n,
      floor: [-9007199254740993n, 1],
    });
  });

  it("keeps a stashed field named __proto__ as a field", () => {
    const fields = JSON.parse('{"__proto__":{"x":"y"},"n":1}');
    const { fields: back } = unstashFields(stashFields({ metadata: {} }, fields));
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(back).toEqual(fields);
  });
});
