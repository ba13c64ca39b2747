import { describe, expect, it } from "vitest";
import { REASON_LIMIT } from "../../src/json/clip";
import type { LogReviews } from "../../src/server/config";
import { createReport } from "../../src/server/report";
import type { LogRecord } from "../../src/log";
import type { Metrics, MeasuredReview } from "../../src/metrics/metrics";
import { type FailureCode, failureOf, type RejectionReason } from "../../src/outcome";

function reported(logReviews: LogReviews = "failures") {
  const logs: LogRecord[] = [];
  const rejected: RejectionReason[] = [];
  const reviews: MeasuredReview[] = [];
  const pending = Promise.resolve();
  const metrics: Metrics = {
    review: (outcome) => reviews.push(outcome),
    rejected: (reason) => rejected.push(reason),
    shadow: () => {},
    pending: () => pending,
  };
  const report = createReport({ log: (record) => logs.push(record), metrics, logReviews, logObjectNames: false });
  const reviewed = (code?: FailureCode) => {
    const review = {
      apiVersion: "apiextensions.k8s.io/v1" as const,
      kind: "ConversionReview" as const,
      request: { uid: "u1", desiredAPIVersion: "example.com/v1", objects: [] },
    };
    return report.reviewed(review, code ? failureOf(code, "object 0 failed") : undefined, 1, false);
  };
  return { report, reviewed, logs, rejected, reviews, pending };
}

describe("the report of a request", () => {
  it("answers a bug of ours with a bare 500, and logs what it was, clipped", () => {
    const { report, logs } = reported();
    const reply = report.internalError(new TypeError(`cannot read ${"x".repeat(10_000)}`));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({ error: "internal error" });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      level: "error",
      msg: "internal error",
      error: expect.stringMatching(/^TypeError: /),
    });
    expect(String(logs[0]!.error).length).toBeLessThan(REASON_LIMIT + 40);
  });

  it("counts a rejection, logs it with its detail, both clipped, and ships the metrics after the reply", () => {
    const { report, logs, rejected, pending } = reported();
    const reply = report.reject({
      reason: "invalid-json",
      message: `not JSON: ${"y".repeat(10_000)}`,
      detail: "z".repeat(10_000),
    });
    expect(reply.status).toBe(400);
    const { error } = JSON.parse(reply.body);
    expect(error.length).toBeLessThan(REASON_LIMIT + 40);
    expect(rejected).toEqual(["invalid-json"]);
    expect(logs).toEqual([expect.objectContaining({ level: "warn", status: 400, reason: "invalid-json", error })]);
    expect(String(logs[0]!.detail).length).toBeLessThan(REASON_LIMIT + 40);
    expect(reply.after).toBe(pending);
  });

  it("logs a user's failing object as a warning and crdshift's own bug as an error", () => {
    const { reviewed, logs } = reported();
    reviewed("converter-threw");
    reviewed("internal-error");
    expect(logs.map((line) => [line.cause, line.code, line.level])).toEqual([
      ["converter-error", "converter-threw", "warn"],
      ["internal-error", "internal-error", "error"],
    ]);
  });

  it("counts a successful review without a log line unless CRDSHIFT_LOG_REVIEWS=all", () => {
    const quiet = reported();
    expect(quiet.reviewed()).toBe(quiet.pending);
    expect(quiet.reviews).toMatchObject([{ result: "success", to: "v1" }]);
    expect(quiet.logs).toEqual([]);
    const all = reported("all");
    all.reviewed();
    expect(all.logs).toEqual([expect.objectContaining({ level: "info", msg: "review converted", result: "success" })]);
  });

  it("counts a 404 without a log line: the internet knocking", () => {
    const { report, logs, rejected } = reported();
    expect(report.notFound().status).toBe(404);
    expect(rejected).toEqual(["not-found"]);
    expect(logs).toEqual([]);
  });

  it("adds the request's trace ids to the review's line, and nothing when it has none", () => {
    const { report, logs } = reported("all");
    const review = {
      apiVersion: "apiextensions.k8s.io/v1" as const,
      kind: "ConversionReview" as const,
      request: { uid: "u1", desiredAPIVersion: "example.com/v1", objects: [] },
    };
    const trace = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };
    report.reviewed(review, undefined, 1, false, trace);
    report.reviewed(review, failureOf("converter-threw", "object 0 failed"), 1, false, trace);
    report.reviewed(review, undefined, 1, false);
    expect(logs.map((line) => [line.result, line.traceId, line.spanId])).toEqual([
      ["success", trace.traceId, trace.spanId],
      ["failure", trace.traceId, trace.spanId],
      ["success", undefined, undefined],
    ]);
    expect(Object.keys(logs[2]!)).not.toContain("traceId");
  });
});
