import { describe, expect, it } from "vitest";
import { isJsonMediaType } from "../../src/server/admission";
import { cronTab, post, review, testApp, wire } from "../helpers";

const TOKEN = "s3cr3t-t0ken-AAAAAAAAAAAA";

describe("the content type a review may come with", () => {
  it.each([
    "application/json",
    "Application/JSON",
    "application/json; charset=utf-8",
    " application/json ;charset=utf-8",
    "application/merge-patch+json",
  ])("accepts %j", (header) => {
    expect(isJsonMediaType(header)).toBe(true);
  });

  it.each([undefined, "", "text/json", "application/yaml", "application/jsonx", "text/plain+json", "json"])(
    "refuses %j",
    (header) => {
      expect(isJsonMediaType(header)).toBe(false);
    },
  );
});

describe("admission, in order", () => {
  const sent = wire(review("example.com/v1", [cronTab("v1beta1", "a", { hostPort: "h:1" })]));

  it("refuses every caller, and says why once, when networks are set but the platform names no caller", async () => {
    const { app, logs } = testApp({ env: { CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8" } });
    for (let i = 0; i < 2; i++) expect((await post(app, sent)).status).toBe(404);
    expect(logs.filter((record) => record.level === "error")).toEqual([
      expect.objectContaining({ msg: expect.stringMatching(/gives no caller address: refusing every request/) }),
    ]);
  });

  it("checks the caller's network before the token, and the token before the method", async () => {
    const { app } = testApp({
      env: { CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8" },
      callerAddress: () => "192.0.2.1",
    });
    expect((await post(app, sent, { path: `/convert/${TOKEN}` })).status).toBe(404);
    const allowed = testApp({ env: { CRDSHIFT_TOKEN: TOKEN }, callerAddress: () => "10.1.2.3" }).app;
    expect((await post(allowed, sent, { path: "/convert/wrong-token-CCCCCCCCCC", method: "PUT" })).status).toBe(404);
    expect((await post(allowed, sent, { path: `/convert/${TOKEN}`, method: "PUT" })).status).toBe(405);
  });

  it("decides the size from Content-Length without reading the body, and counts a body sent without one", async () => {
    const { app } = testApp({ env: { CRDSHIFT_BODY_LIMIT_BYTES: "4096" } });
    const big = "x".repeat(5000);
    const declared = await app.request("http://crdshift.test/convert", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": "5000" },
      body: new ReadableStream({
        pull() {
          throw new Error("the body was read");
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(declared.status).toBe(413);
    const streamed = await app.request("http://crdshift.test/convert", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });
});
