import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { createWorker } from "crdshift/workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registry } from "../../examples";
import docsV1 from "../../examples/requests/docs-v1.json";
import type { Registry } from "../../src/conversion";
import { hostile } from "../fixtures/hostile-registries";
import { registry as dropsPort } from "../fixtures/port-dropping-registry";

// Inside workerd: a Worker with a shadow candidate runs it in waitUntil, after the reply.

const URL_OK = "https://crdshift.test/convert?timeout=30s";
const body = `${JSON.stringify(docsV1)}\n`;

/** One request to a fresh Worker; its reply, then what it logged once its waitUntil work ended. */
async function exchange(candidate: Registry | undefined, env: Record<string, string>, request: Request) {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  const worker = createWorker(registry, candidate ? { shadow: candidate } : {});
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, env, ctx);
  const reply = { status: res.status, contentType: res.headers.get("content-type"), body: await res.text() };
  await waitOnExecutionContext(ctx);
  return { reply, lines };
}

const review = () => new Request(URL_OK, { method: "POST", headers: { "Content-Type": "application/json" }, body });
const SHADOW = { CRDSHIFT_SHADOW_SAMPLE: "1", CRDSHIFT_METRICS: "emf" };

afterEach(() => vi.restoreAllMocks());

describe("in workerd, a Worker with a shadow candidate", () => {
  it("counts and logs the candidate's differences after the reply, by path, without values", async () => {
    const { reply, lines } = await exchange(dropsPort, SHADOW, review());
    const plain = await exchange(undefined, { CRDSHIFT_METRICS: "emf" }, review());
    expect(reply).toEqual(plain.reply);
    const emf = lines.map((line) => JSON.parse(line)).find((record) => "ShadowDifferences" in record);
    expect(emf).toMatchObject({ CRD: "CronTab.example.com", From: "v1beta1", To: "v1", ShadowDifferences: 2 });
    const logged = lines.filter((line) => line.includes('"shadow difference"')).map((line) => JSON.parse(line));
    expect(logged.map((record) => [record.object, record.paths])).toEqual([
      [0, ["port"]],
      [1, ["port"]],
    ]);
    expect(lines.filter((line) => line.includes('"shadow')).join("\n")).not.toMatch(/1234|localhost/);
  });

  it("says so on /healthz", async () => {
    const { reply } = await exchange(dropsPort, { CRDSHIFT_SHADOW_SAMPLE: "0.01" }, new Request("https://x/healthz"));
    expect(JSON.parse(reply.body)).toEqual({ status: "ok", shadow: { sample: 0.01 } });
  });

  it.each([
    ["throws", hostile.throws, "failed"],
    ["never settles", hostile.neverSettles, "timed-out"],
    ["is slow", () => hostile.slow(20), undefined],
    ["allocates 32 MB an object", () => hostile.allocates(32), undefined],
    ["scribbles on its objects", hostile.scribbles, undefined],
    ["answers with 2,000,000 items", () => hostile.floods(2_000_000), "failed"],
  ] as const)("answers as without it when the candidate %s", async (_, candidate, failure) => {
    const plain = await exchange(undefined, {}, review());
    const { reply, lines } = await exchange(candidate(), SHADOW, review());
    expect(reply).toEqual(plain.reply);
    const failed = lines.map((line) => JSON.parse(line)).filter((record) => record.msg === "shadow candidate failed");
    expect(failed.map((record) => record.reason)).toEqual(failure ? [failure] : []);
  });
});
