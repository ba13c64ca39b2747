import { existsSync, readFileSync } from "node:fs";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJson } from "../../src/json/codec";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";
import { DEEP_TREES, deepConverted, deepReview } from "../deep-reviews";
import { MetricsRecorder } from "../metrics/recorder";

/**
 * What is deployed is what is tested: the bundle `npm run build:worker` wrote (the same
 * command `wrangler deploy` runs), loaded into miniflare's workerd with wrangler.toml's settings.
 */
const BUNDLE = new URL("../../build/worker/worker.js", import.meta.url);
const TOKEN = "bundle-test-token-0123456789";
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../examples/requests/${name}`, import.meta.url), "utf8"));

const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(toml)![1]!;
let mf: Miniflare;

/** The deployed Worker as wrangler.toml describes it, with these bindings. */
function worker(bindings: Record<string, string>) {
  return new Miniflare({
    modules: true,
    scriptPath: BUNDLE.pathname,
    // As wrangler.toml's rules: every .js file is an ES module (the SDK chunks load lazily).
    modulesRules: [{ type: "ESModule", include: ["**/*.js"] }],
    compatibilityDate,
    bindings,
  });
}

beforeAll(async () => {
  if (!existsSync(BUNDLE))
    throw new Error("build/worker/worker.js is missing: run `npm run build:worker` (npm test does)");
  mf = worker({ CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_BODY_LIMIT_BYTES: "33554432", CRDSHIFT_BUDGET_MS: "25000" });
  await mf.ready;
});
afterAll(() => mf?.dispose());

async function post(sent: unknown, path = `/convert/${TOKEN}?timeout=30s`) {
  const res = await mf.dispatchFetch(`https://crdshift.test${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: `${JSON.stringify(sent)}\n`,
  });
  return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type") ?? "" };
}

describe("the built Workers bundle, in workerd", () => {
  for (const version of ["v1", "v1beta1"]) {
    it(`converts the docs page's ${version} request, and the apiserver would accept the reply`, async () => {
      const sent = read(`docs-${version}.json`) as SentReview;
      const { status, text, contentType } = await post(sent);
      expect(checkReply(sent, status, text, contentType)).toMatchObject({ ok: true });
      expect(JSON.parse(text)).toEqual(read(`docs-${version}.response.json`));
    });
  }

  it("reads a body that starts with a UTF-8 byte order mark as Node and Lambda do", async () => {
    const res = await mf.dispatchFetch(`https://crdshift.test/convert/${TOKEN}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: `\uFEFF${JSON.stringify(read("docs-v1.json"))}`,
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toEqual(read("docs-v1.response.json"));
  });

  it("fails cleanly, and hides itself without the token", async () => {
    const sent = read("docs-v1.json");
    sent.request.objects[1].hostPort = "nope";
    const failed = await post(sent);
    expect(failed.status).toBe(200);
    expect(JSON.parse(failed.text).response.result.message).toBe(
      "object 1 (remote-crontab, uid 359a83ec-b575-460d-b553-d859cedde8a0) CronTab example.com/v1beta1 -> example.com/v1: hostPort could not be parsed into a separate host and port",
    );
    expect((await post(sent, "/convert")).status).toBe(404);
  });

  for (const [name, tree] of DEEP_TREES) {
    it(`converts ${name}, as deep as the apiserver stores them`, async () => {
      const body = deepReview(tree);
      const res = await mf.dispatchFetch(`https://crdshift.test/convert/${TOKEN}?timeout=30s`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
      const text = await res.text();
      expect(
        checkReply(decodeJson(body).value as SentReview, res.status, text, res.headers.get("content-type") ?? ""),
      ).toMatchObject({ ok: true });
      expect(text).toContain(`"convertedObjects":[${deepConverted(tree)}]`);
    });
  }

  it("refuses a bad configuration without revealing it", async () => {
    const broken = worker({ CRDSHIFT_TOKEN: "too/short" });
    try {
      const res = await broken.dispatchFetch("https://crdshift.test/convert/too/short", { method: "POST" });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).toBe('{"error":"crdshift is misconfigured; see the Worker\'s logs"}');
    } finally {
      await broken.dispose();
    }
  });
});

describe("the built Workers bundle during a token rotation", () => {
  it("answers at the current and the next token's paths, and nowhere else", async () => {
    const NEXT = "bundle-next-token-9876543210";
    const rotating = worker({ CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_TOKEN_NEXT: NEXT });
    try {
      const at = async (path: string) =>
        (
          await rotating.dispatchFetch(`https://crdshift.test${path}`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(read("docs-v1.json")),
          })
        ).status;
      expect(await at(`/convert/${TOKEN}`)).toBe(200);
      expect(await at(`/convert/${NEXT}`)).toBe(200);
      expect(await at("/convert/bundle-old-token-000000000")).toBe(404);
      expect(await at("/convert")).toBe(404);
    } finally {
      await rotating.dispose();
    }
  });
});

describe("the built Workers bundle with CRDSHIFT_ALLOWED_SOURCES", () => {
  it("answers callers from allowed networks only, by the address Cloudflare's edge records", async () => {
    const restricted = worker({ CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_ALLOWED_SOURCES: "203.0.113.0/24, 2001:db8::/32" });
    try {
      const from = async (ip?: string) =>
        (
          await restricted.dispatchFetch(`https://crdshift.test/convert/${TOKEN}`, {
            method: "POST",
            headers: { "Content-Type": "application/json", ...(ip ? { "CF-Connecting-IP": ip } : {}) },
            body: JSON.stringify(read("docs-v1.json")),
          })
        ).status;
      expect(await from("203.0.113.9")).toBe(200);
      expect(await from("2001:db8::7")).toBe(200);
      expect(await from("198.51.100.1")).toBe(404);
      expect(await from()).toBe(404);
    } finally {
      await restricted.dispose();
    }
  });
});

describe("the built Workers bundle with metrics to CloudWatch", () => {
  it("keeps the SDK and shadow mode out of what every cold start loads: each is imported when configured", () => {
    const main = readFileSync(BUNDLE, "utf8");
    // The main module and the chunks it imports statically (code it shares with the lazy ones).
    const eager = [main];
    for (const [, chunk] of main.matchAll(/import\{[^}]*\}from"\.\/(chunks\/[^"]+\.js)"/g))
      eager.push(readFileSync(new URL(`../../build/worker/${chunk}`, import.meta.url), "utf8"));
    // The service's wire name lives in the SDK's code, the log line's text in shadow mode's.
    expect(eager.some((code) => code.includes("GraniteServiceVersion20100801"))).toBe(false);
    expect(eager.some((code) => code.includes("shadow difference"))).toBe(false);
    expect(main.match(/import\("\.\/chunks\/[^"]+\.js"\)/g)).toHaveLength(2);
  });

  it("sends PutMetricData after the reply, through waitUntil, and a broken CloudWatch changes no reply", async () => {
    const recorder = await new MetricsRecorder().start();
    const metered = worker({
      CRDSHIFT_TOKEN: TOKEN,
      CRDSHIFT_METRICS: "cloudwatch",
      CRDSHIFT_METRICS_REGION: "eu-central-1",
      CRDSHIFT_METRICS_ENDPOINT: recorder.url,
      CRDSHIFT_METRICS_INTERVAL_MS: "1",
      AWS_ACCESS_KEY_ID: "AKIDWORKERSTEST",
      AWS_SECRET_ACCESS_KEY: "worker-secret",
    });
    try {
      const sent = read("docs-v1.json");
      const send = () =>
        metered.dispatchFetch(`https://crdshift.test/convert/${TOKEN}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(sent),
        });
      const res = await send();
      expect(JSON.parse(await res.text())).toEqual(read("docs-v1.response.json"));
      const [call] = await recorder.received(1);
      expect(call!.headers.authorization).toContain("Credential=AKIDWORKERSTEST/");
      expect(call!.body.Namespace).toBe("crdshift");
      expect(call!.body.MetricData.find((d) => d.MetricName === "ObjectsConverted")).toMatchObject({
        Values: [2],
        Counts: [1],
      });

      recorder.mode = "fail";
      const during = await send();
      expect(JSON.parse(await during.text())).toEqual(read("docs-v1.response.json"));
    } finally {
      await metered.dispose();
      await recorder.stop();
    }
  });
});
