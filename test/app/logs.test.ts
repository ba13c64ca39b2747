import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { post, testApp } from "../helpers";

const docsV1 = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const TOKEN = "log-test-token-0123456789";

describe("the log line per review", () => {
  it("is written for failed reviews only by default: metrics count the rest", async () => {
    const { app, logs } = testApp({ env: { CRDSHIFT_TOKEN: TOKEN } });
    expect((await post(app, docsV1, { path: `/convert/${TOKEN}` })).status).toBe(200);
    expect(logs).toEqual([]);
    const failing = docsV1.replace('"desiredAPIVersion": "example.com/v1"', '"desiredAPIVersion": "example.com/v9"');
    expect(failing).not.toBe(docsV1);
    await post(app, failing, { path: `/convert/${TOKEN}` });
    expect(logs).toEqual([
      expect.objectContaining({ level: "warn", msg: "review converted", result: "failure", cause: "unknown-version" }),
    ]);
  });

  it("says which review, which kinds, how many, how long and how it ended; never contents or the token", async () => {
    const { app, logs } = testApp({ env: { CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_LOG_REVIEWS: "all" } });
    await post(app, docsV1, { path: `/convert/${TOKEN}` });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      level: "info",
      msg: "review converted",
      uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
      reviewVersion: "apiextensions.k8s.io/v1",
      desiredAPIVersion: "example.com/v1",
      kinds: ["CronTab.example.com"],
      objects: 2,
      durationMs: expect.any(Number),
      result: "success",
    });
    const line = JSON.stringify(logs);
    expect(line).not.toContain(TOKEN);
    expect(line).not.toContain("local-crontab"); // names only behind the debug switch
    expect(line).not.toContain("localhost:1234"); // contents never
  });

  it("names the objects, and only them, behind CRDSHIFT_LOG_OBJECT_NAMES", async () => {
    const { app, logs } = testApp({ env: { CRDSHIFT_LOG_OBJECT_NAMES: "true", CRDSHIFT_LOG_REVIEWS: "all" } });
    await post(app, docsV1);
    expect(logs[0]!.objectNames).toEqual([
      expect.stringMatching(/^object 0 \(default\/local-crontab, uid /),
      expect.stringMatching(/^object 1 \(remote-crontab, uid /),
    ]);
    expect(JSON.stringify(logs)).not.toContain("localhost:1234");
  });

  it("counts knocks without the token but does not log each one", async () => {
    const { app, logs } = testApp({ env: { CRDSHIFT_TOKEN: TOKEN } });
    for (let i = 0; i < 5; i++)
      expect((await post(app, docsV1, { path: "/convert/guess-0123456789abcdef" })).status).toBe(404);
    expect(logs).toEqual([]);
    await post(app, "{", { path: `/convert/${TOKEN}` });
    expect(logs).toMatchObject([{ level: "warn", msg: "request rejected", status: 400, reason: "invalid-json" }]);
  });
});
