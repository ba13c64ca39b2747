import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AppOptions } from "../../../src/server/app";
import type { LogRecord } from "../../../src/log";
import type { Metrics } from "../../../src/metrics/metrics";
import { hostile } from "../../fixtures/hostile-registries";
import { registry as dropsPort } from "../../fixtures/port-dropping-registry";
import { until } from "../../until";
import { listen as listenWith, raw, send, type Sent } from "./node-wire";
import { PLATFORM_CASES, platformRegistry, platformReview } from "../../conversion/converter-results";

// The Node server over TCP when a request or a part of the app goes wrong: callers it must not
// answer, uploads that break off, a clock or a metrics sink that throws, a shadow candidate
// that misbehaves.

const TOKEN = "node-faults-token-0123456789";
const docsV1 = readFileSync(new URL("../../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const json: Array<[string, string]> = [["Content-Type", "application/json"]];
const review: Sent = { name: "a review", path: `/convert/${TOKEN}?timeout=30s`, headers: json, body: docsV1 };
const head = `POST /convert/${TOKEN} HTTP/1.1\r\nHost: crdshift.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
const cutShort = Buffer.from(`${head}{"apiVersion":`);

const listen = (env: Record<string, string>, options: Partial<AppOptions> = {}) =>
  listenWith({ CRDSHIFT_TOKEN: TOKEN, ...env }, options);

const counted = (reports: Array<[string, unknown]>) =>
  reports.filter(([kind]) => kind === "rejected" || kind === "review");

describe("the Node server, over TCP, when a request goes wrong", () => {
  it("refuses a caller outside CRDSHIFT_ALLOWED_SOURCES by its socket's address, as not found", async () => {
    const { port, reports } = await listen({ CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8" });
    const forged: Sent = { ...review, headers: [...json, ["X-Forwarded-For", "10.1.2.3"]] };
    const answer = await send(port, forged);
    expect([answer.status, answer.body]).toEqual([404, '{"error":"not found"}']);
    expect(reports).toEqual([["rejected", "source-not-allowed"]]);
  });

  it("counts an instance's first review as its cold start, after requests it refused", async () => {
    const { port, reports } = await listen({ CRDSHIFT_LOG_REVIEWS: "all" });
    expect((await send(port, { ...review, path: "/convert/wrong-token-0123456789abc" })).status).toBe(404);
    expect((await send(port, review)).status).toBe(200);
    expect((await send(port, review)).status).toBe(200);
    const converted = reports.filter(
      ([kind, record]) => kind === "log" && (record as LogRecord).msg === "review converted",
    );
    expect(converted.map(([, record]) => (record as LogRecord).cold)).toEqual([true, false]);
  });

  it("answers an upload that breaks off as the caller's fault: body-unreadable, once each", async () => {
    const { port, reports } = await listen({});
    for (const then of ["destroy", "end"] as const) await raw(port, cutShort, then);
    await until(() => counted(reports).length >= 2);
    expect(counted(reports)).toEqual([
      ["rejected", "body-unreadable"],
      ["rejected", "body-unreadable"],
    ]);
    expect((await send(port, review)).status).toBe(200);
  });
});

describe("the Node server, over TCP, when a part of the app throws", () => {
  it("answers 500 and keeps serving where the report throws on a broken upload or the clock on a request's arrival", async () => {
    for (const breaks of ["report", "clock"] as const) {
      const logged: LogRecord[] = [];
      const metrics: Metrics = {
        review: () => {},
        rejected: (reason) => {
          if (breaks === "report" && reason === "body-unreadable") throw new Error("metrics sink broke");
        },
        shadow: () => {},
        pending: () => undefined,
      };
      // The review route reads the clock first when a request arrives: that read throws, once.
      let clockBreaks = false;
      const now = () => {
        if (clockBreaks) {
          clockBreaks = false;
          throw new Error("clock broke");
        }
        return Date.now();
      };
      const { port } = await listen({}, { metrics, now, log: (record) => logged.push(record) });
      if (breaks === "report") await raw(port, cutShort, "destroy");
      clockBreaks = breaks === "clock";
      const answered = await send(port, review);
      if (breaks === "clock") expect([answered.status, answered.body]).toEqual([500, '{"error":"internal error"}']);
      await until(() => logged.some((record) => record.msg === "internal error"));
      expect(logged.filter((record) => record.msg === "internal error")).toHaveLength(1);
      expect((await send(port, review)).status).toBe(200);
    }
  });

  it("answers every review as without a shadow candidate, a hostile one included, and runs the candidate", async () => {
    const sent: Sent[] = [
      review,
      { ...review, name: "a review that fails", body: docsV1.replace('"example.com/v1"', '"example.com/v9"') },
      { ...review, name: "invalid JSON", body: '{"apiVersion":' },
      { ...review, name: "a review, chunked", chunked: true },
    ];
    const plain = await listen({});
    const expected = [];
    for (const request of sent) expected.push(await send(plain.port, request));
    for (const candidate of [dropsPort, hostile.throws(), hostile.scribbles()]) {
      const { port, reports } = await listen({ CRDSHIFT_SHADOW_SAMPLE: "1" }, { shadow: candidate });
      for (const [i, request] of sent.entries()) {
        const { status, body } = await send(port, request);
        expect({ name: request.name, status, body }).toEqual({ name: request.name, ...pick(expected[i]!) });
      }
      // Shadow work yields to load by design (one at a time, idle after each, dropped if it cannot
      // start soon): a review is sent again until one ran, bounded by `until`.
      const ran = () => reports.some(([kind]) => kind === "shadow");
      await until(() => ran() || (void send(port, review).catch(() => undefined), false));
      expect(ran()).toBe(true);
    }
  });
});

describe("the Node server, over TCP, when a converter returns or throws what could end the process", () => {
  it("answers each with the converter's Failure, logged as its error, and converts the next review", async () => {
    const { port, reports } = await listen({}, { registry: platformRegistry() });
    const hostile = ["SparseList", "SharedBomb", "ThrowsNullPrototype", "RejectsHostileProxy"];
    for (const kind of hostile) {
      const { failure, result } = PLATFORM_CASES.find((one) => one.kind === kind)!;
      const answer = await send(port, { ...review, name: kind, body: JSON.stringify(platformReview(kind)) });
      expect(answer.status).toBe(200);
      const { status, message } = (
        JSON.parse(answer.body) as { response: { result: { status: string; message: string } } }
      ).response.result;
      expect({ status, message }).toEqual(
        failure ? { status: "Failure", message: expect.stringMatching(failure) } : result,
      );
    }
    const next = await send(port, { ...review, body: JSON.stringify(platformReview("Cached")) });
    expect(JSON.parse(next.body)).toMatchObject({ response: { result: { status: "Success" } } });
    const causes = reports
      .filter(([kind]) => kind === "review")
      .map(([, outcome]) => (outcome as { cause?: string }).cause);
    expect(causes).toEqual([...hostile.map(() => "converter-error"), undefined]);
  });
});

function pick({ status, body }: { status: number; body: string }) {
  return { status, body };
}
