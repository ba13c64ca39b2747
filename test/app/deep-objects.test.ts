import { describe, expect, it } from "vitest";
import { decodeJson } from "../../src/json/codec";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";
import { nested } from "../deep-reviews";
import { cronTab, post, review, testApp, wire } from "../helpers";

/**
 * The apiserver stores objects nested up to 10,000 levels (sigs.k8s.io/json), for instance
 * under `x-kubernetes-preserve-unknown-fields`, and sends them for conversion: every one must
 * convert, and nothing on the way (depth check, size check, copy, validation, printing) may
 * run out of stack. Bodies are written as text, deep parts spliced in: no printer is trusted.
 */
function body(
  fields: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
  trees: Record<string, string> = {},
): string {
  let text = wire(review("example.com/v1", [cronTab("v1beta1", "deep", { hostPort: "db:5432", ...fields }, metadata)]));
  for (const [name, tree] of Object.entries(trees)) text = text.replace(`"${name}"`, tree);
  return text;
}

type App = ReturnType<typeof testApp>["app"];

/** Posts a body; asserts the apiserver would accept the reply; returns the reply's text. */
async function converted(app: App, text: string): Promise<string> {
  const res = await post(app, text);
  const reply = await res.text();
  expect(res.status, reply.slice(0, 300)).toBe(200);
  const verdict = checkReply(
    decodeJson(text).value as SentReview,
    res.status,
    reply,
    res.headers.get("content-type") ?? "",
  );
  if (!verdict.ok) expect.fail(`apiserver would reject the reply: ${verdict.error}`);
  return reply;
}

describe("objects nested as deep as the apiserver stores them", () => {
  const { app } = testApp();

  it("a 9,000-deep object converts, its tree unchanged", async () => {
    const reply = await converted(app, body({ spec: { tree: "TREE" } }, {}, { TREE: nested(9000) }));
    expect(reply).toContain(`"spec":{"tree":${nested(9000)}},"host":"db","port":"5432"`);
  });

  it("a 9,000-deep object with an int64 at the bottom converts, the integer exact", async () => {
    const tree = nested(9000, "-9223372036854775807");
    const reply = await converted(app, body({ spec: { tree: "TREE" } }, {}, { TREE: tree }));
    expect(reply).toContain(`"spec":{"tree":${tree}}`);
  });

  it("deeper than the apiserver reads (10,000 levels, the default CRDSHIFT_MAX_DEPTH): a clean 400", async () => {
    const res = await post(app, body({ tree: "TREE" }, {}, { TREE: nested(9998) }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "body is nested 10002 levels deep, over the limit of 10000 (CRDSHIFT_MAX_DEPTH)",
    });
  });
});

describe("with CRDSHIFT_MAX_DEPTH raised, nothing recurses", () => {
  const { app } = testApp({ env: { CRDSHIFT_MAX_DEPTH: "1000000" } });

  it("a deep object beside a 1 MB string: the per-object size check measures it", async () => {
    const reply = await converted(
      app,
      body({ note: "x".repeat(1_100_000), tree: "TREE" }, {}, { TREE: nested(50_000) }),
    );
    expect(reply).toContain(`"tree":${nested(50_000)}`);
  });

  it("a 200,000-deep object, in metadata too, converts", async () => {
    const trees = { TREE: nested(200_000, "12345678901234567890"), OWNERS: nested(200_000) };
    const reply = await converted(app, body({ tree: "TREE" }, { ownerReferences: "OWNERS" }, trees));
    expect(reply).toContain(`"ownerReferences":${trees.OWNERS}`);
    expect(reply).toContain(`"tree":${trees.TREE}`);
  });
});
