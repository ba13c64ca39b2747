import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { REASON_LIMIT } from "../../src/clip";
import { createReport } from "../../src/http/report";
import type { LogRecord } from "../../src/log";
import type { Metrics, RejectionReason } from "../../src/metrics/metrics";

function reported() {
  const logs: LogRecord[] = [];
  const rejected: RejectionReason[] = [];
  const deferred: Promise<void>[] = [];
  const pending = Promise.resolve();
  const metrics: Metrics = { review() {}, rejected: (reason) => rejected.push(reason), pending: () => pending };
  const report = createReport({
    log: (record) => logs.push(record),
    metrics,
    defer: (_c, work) => deferred.push(work),
    logObjectNames: false,
  });
  const app = new Hono();
  app.get("/boom", () => {
    throw new TypeError(`cannot read ${"x".repeat(10_000)}`);
  });
  app.get("/refuse", (c) =>
    report.refuse(c, "invalid-json", 400, `not JSON: ${"y".repeat(10_000)}`, { detail: "z".repeat(10_000) }),
  );
  app.notFound(report.notFound);
  app.onError(report.internalError);
  return { app, logs, rejected, deferred, pending };
}

describe("the report of a request", () => {
  it("answers a bug of ours with a bare 500, and logs what it was, clipped", async () => {
    const { app, logs } = reported();
    const res = await app.request("http://crdshift.test/boom");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "internal error" });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      level: "error",
      msg: "internal error",
      error: expect.stringMatching(/^TypeError: /),
    });
    expect(String(logs[0]!.error).length).toBeLessThan(REASON_LIMIT + 40);
  });

  it("counts a refusal, logs it with its detail, both clipped, and ships the metrics after the reply", async () => {
    const { app, logs, rejected, deferred, pending } = reported();
    const res = await app.request("http://crdshift.test/refuse");
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.length).toBeLessThan(REASON_LIMIT + 40);
    expect(rejected).toEqual(["invalid-json"]);
    expect(logs).toEqual([expect.objectContaining({ level: "warn", status: 400, reason: "invalid-json", error })]);
    expect(String(logs[0]!.detail).length).toBeLessThan(REASON_LIMIT + 40);
    expect(deferred).toEqual([pending]);
  });

  it("counts a 404 without a log line: the internet knocking", async () => {
    const { app, logs, rejected } = reported();
    expect((await app.request("http://crdshift.test/nothing-here")).status).toBe(404);
    expect(rejected).toEqual(["not-found"]);
    expect(logs).toEqual([]);
  });
});
