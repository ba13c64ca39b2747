import { describe, expect, it } from "vitest";
import { decodeJson } from "../../src/protocol/json";
import { convertOk, cronTab, post, review, testApp, wire } from "../helpers";

/**
 * The apiserver stores objects nested up to 10,000 levels (sigs.k8s.io/json), for instance
 * under `x-kubernetes-preserve-unknown-fields`, and sends them for conversion: every one must
 * convert, and nothing on the way (depth check, size check, copy, validation, printing) may
 * run out of stack.
 */
const nest = (depth: number, inner = "1") => `${'{"a":['.repeat(depth / 2)}${inner}${"]}".repeat(depth / 2)}`;
const tree = (depth: number, inner?: string) => decodeJson(nest(depth, inner)).value;

describe("objects nested as deep as the apiserver stores them", () => {
  const { app } = testApp();

  it("a 9,000-deep object converts, its tree unchanged", async () => {
    const sent = review("example.com/v1", [cronTab("v1beta1", "deep", { hostPort: "db:5432", spec: { tree: tree(9000) } })]);
    const { text, objects } = await convertOk(app, sent);
    expect(text).toContain(`"spec":{"tree":${nest(9000)}}`);
    expect(objects[0]).toMatchObject({ apiVersion: "example.com/v1", host: "db", port: "5432" });
  });

  it("a 9,000-deep object with an int64 at the bottom converts, the integer exact", async () => {
    const sent = review("example.com/v1", [cronTab("v1beta1", "deep", { hostPort: "db:5432", spec: { tree: tree(9000, "-9223372036854775807") } })]);
    const { text } = await convertOk(app, sent);
    expect(text).toContain(`"spec":{"tree":${nest(9000, "-9223372036854775807")}}`);
  });

  it("deeper than the apiserver reads (10,000 levels, the default CRDSHIFT_MAX_DEPTH): a clean 400", async () => {
    const body = wire(review("example.com/v1", [cronTab("v1beta1", "deep", { hostPort: "db:5432", tree: tree(9998) })]));
    const res = await post(app, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "body is nested 10002 levels deep, over the limit of 10000 (CRDSHIFT_MAX_DEPTH)" });
  });
});

describe("with CRDSHIFT_MAX_DEPTH raised, nothing recurses", () => {
  const { app } = testApp({ env: { CRDSHIFT_MAX_DEPTH: "1000000" } });

  it("a 2,200-deep object beside a 1 MB string: the per-object size check measures it", async () => {
    const sent = review("example.com/v1", [cronTab("v1beta1", "big", { hostPort: "db:5432", note: "x".repeat(1_100_000), tree: tree(2200) })]);
    const { text } = await convertOk(app, sent);
    expect(text).toContain(`"tree":${nest(2200)}`);
  });

  it("a 200,000-deep object, in metadata too, converts", async () => {
    const object = cronTab("v1beta1", "deepest", { hostPort: "db:5432", tree: tree(200_000, "12345678901234567890") }, { ownerReferences: tree(200_000) });
    const { text } = await convertOk(app, review("example.com/v1", [object]));
    expect(text).toContain(`"ownerReferences":${nest(200_000)}`);
    expect(text).toContain(`"tree":${nest(200_000, "12345678901234567890")}`);
  });
});
