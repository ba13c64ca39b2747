import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { REASON_LIMIT } from "../../src/clip";
import { createReport } from "../../src/http/report";
import type { LogRecord } from "../../src/log";
import type { Metrics } from "../../src/metrics/metrics";
import type { RejectionReason } from "../../src/outcomes";

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
  for (const cause of ["converter-error", "internal-error"] as const) {
    app.get(`/reviewed/${cause}`, (c) => {
      const review = {
        apiVersion: "apiextensions.k8s.io/v1" as const,
        kind: "ConversionReview" as const,
        request: { uid: "u1", desiredAPIVersion: "example.com/v1", objects: [] },
      };
      report.reviewed(c, review, { cause, message: "object 0 failed" }, 1, false);
      return c.text("ok");
    });
  }
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

  it("logs a user's failing object as a warning and crdshift's own bug as an error", async () => {
    const { app, logs } = reported();
    await app.request("http://crdshift.test/reviewed/converter-error");
    await app.request("http://crdshift.test/reviewed/internal-error");
    expect(logs.map((line) => [line.cause, line.level])).toEqual([
      ["converter-error", "warn"],
      ["internal-error", "error"],
    ]);
  });

  it("counts a 404 without a log line: the internet knocking", async () => {
    const { app, logs, rejected } = reported();
    expect((await app.request("http://crdshift.test/nothing-here")).status).toBe(404);
    expect(rejected).toEqual(["not-found"]);
    expect(logs).toEqual([]);
  });
});
