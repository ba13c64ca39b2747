import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registry } from "../../examples";
import { createApp } from "../../src/server/app";
import { readConfig } from "../../src/server/config";
import type { LogRecord } from "../../src/log";
import { createMetrics } from "../../src/metrics";
import { post } from "../helpers";
import { MetricsRecorder } from "./recorder";

const docsV1 = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");
let recorder: MetricsRecorder;
beforeAll(async () => {
  recorder = await new MetricsRecorder().start();
});
afterAll(() => recorder.stop());
beforeEach(() => {
  recorder.calls = [];
  recorder.mode = "ok";
});

/** The app as an entry builds it, with the CloudWatch sink pointed at the recorder. */
function cloudWatchApp(env: Record<string, string> = {}, { sdk = true } = {}) {
  const logs: LogRecord[] = [];
  const deferred: Promise<void>[] = [];
  const log = (record: LogRecord) => logs.push(record);
  const config = readConfig({
    CRDSHIFT_METRICS: "cloudwatch",
    CRDSHIFT_METRICS_REGION: "eu-west-1",
    CRDSHIFT_METRICS_ENDPOINT: recorder.url,
    AWS_ACCESS_KEY_ID: "AKIDCRDSHIFTTEST",
    AWS_SECRET_ACCESS_KEY: "not-a-real-secret",
    ...env,
  });
  const metrics = createMetrics(config.metrics, {
    log,
    write: () => {},
    ...(sdk ? { loadCloudWatchSdk: () => import("@aws-sdk/client-cloudwatch") } : {}),
  });
  const app = createApp({ registry, config, log, metrics, defer: (_c, work) => deferred.push(work) });
  return { app, logs, deferred, settled: () => Promise.all(deferred) };
}

describe("metrics to CloudWatch with PutMetricData, on the wire", () => {
  it("sends the documented metrics for the docs example, signed, after the reply", async () => {
    const { app, settled } = cloudWatchApp();
    const res = await post(app, docsV1);
    expect((await res.json()).response.result.status).toBe("Success");
    await settled();

    const [call] = await recorder.received(1);
    expect(call!.headers["x-amz-target"]).toBe("GraniteServiceVersion20100801.PutMetricData");
    expect(call!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDCRDSHIFTTEST\/\d{8}\/eu-west-1\/monitoring\/aws4_request/,
    );
    expect(call!.body.Namespace).toBe("crdshift");
    const byName = Object.fromEntries(call!.body.MetricData.map((d) => [d.MetricName, d]));
    expect(Object.keys(byName).sort()).toEqual(["ObjectsConverted", "ReviewLatency"]);
    expect(byName.ObjectsConverted).toMatchObject({
      Unit: "Count",
      Dimensions: [
        { Name: "CRD", Value: "CronTab.example.com" },
        { Name: "From", Value: "v1beta1" },
        { Name: "To", Value: "v1" },
      ],
      Values: [2],
      Counts: [1],
    });
    expect(byName.ReviewLatency).toMatchObject({
      Unit: "Milliseconds",
      Dimensions: expect.arrayContaining([{ Name: "Result", Value: "success" }]),
    });
    expect(JSON.stringify(call)).not.toContain("local-crontab"); // names and contents never leave
  });

  it("batches what arrives within the interval into one call, counting equal values", async () => {
    // Long enough that the 20 requests surely land within one interval, even on a slow machine.
    const { app, settled } = cloudWatchApp({ CRDSHIFT_METRICS_INTERVAL_MS: "1500" });
    for (let i = 0; i < 20; i++) await post(app, docsV1);
    await post(app, "{not json");
    await settled();
    const calls = await recorder.received(2);
    expect(calls).toHaveLength(2); // the first review at once, the other 19 and the rejection together
    const second = Object.fromEntries(calls[1]!.body.MetricData.map((d) => [d.MetricName, d]));
    expect(second.ObjectsConverted).toMatchObject({ Values: [2], Counts: [19] });
    expect(second.ReviewsRejected).toMatchObject({
      Dimensions: [{ Name: "Reason", Value: "invalid-json" }],
      Values: [1],
      Counts: [1],
    });
  });

  it("counts failures overall, per CRD and by cause", async () => {
    const { app, settled } = cloudWatchApp();
    const broken = JSON.parse(docsV1);
    broken.request.objects[1].hostPort = "no port";
    await post(app, JSON.stringify(broken));
    await settled();
    const [call] = await recorder.received(1);
    const failures = call!.body.MetricData.filter((d) => d.MetricName === "ConversionFailures");
    expect(failures.map((d) => d.Dimensions)).toEqual([
      [],
      [{ Name: "CRD", Value: "CronTab.example.com" }],
      [{ Name: "Cause", Value: "converter-error" }],
    ]);
  });

  it("a failing CloudWatch touches no conversion, and is logged once per outage", async () => {
    recorder.mode = "fail";
    const { app, logs, settled } = cloudWatchApp({ CRDSHIFT_METRICS_INTERVAL_MS: "1" });
    for (let i = 0; i < 3; i++) {
      const res = await post(app, docsV1);
      expect(res.status).toBe(200);
      expect((await res.json()).response.result.status).toBe("Success");
      await settled();
    }
    expect(recorder.calls.length).toBeGreaterThanOrEqual(3);
    const dropped = logs.filter((l) => l.msg === "metrics dropped");
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ level: "warn", sink: "cloudwatch" });
    expect(String(dropped[0]!.error)).not.toContain("not-a-real-secret");

    recorder.mode = "ok";
    await post(app, docsV1);
    await settled();
    expect(logs.filter((l) => l.msg === "metrics delivered again")).toHaveLength(1);
  });

  it("without the SDK (a Worker not given it), converts as ever and logs once that metrics are dropped, saying how to pass it", async () => {
    const { app, logs, settled } = cloudWatchApp({ CRDSHIFT_METRICS_INTERVAL_MS: "1" }, { sdk: false });
    for (let i = 0; i < 2; i++) {
      expect((await (await post(app, docsV1)).json()).response.result.status).toBe("Success");
      await settled();
    }
    expect(recorder.calls).toHaveLength(0);
    const dropped = logs.filter((l) => l.msg === "metrics dropped");
    expect(dropped).toHaveLength(1);
    expect(String(dropped[0]!.error)).toContain('pass loadCloudWatchSdk: () => import("@aws-sdk/client-cloudwatch")');
  });

  it("a hanging CloudWatch does not delay the reply, and is given up after the timeout", async () => {
    recorder.mode = "hang";
    const { app, logs, settled } = cloudWatchApp({ CRDSHIFT_METRICS_TIMEOUT_MS: "1000" });
    const res = await post(app, docsV1);
    expect((await res.json()).response.result.status).toBe("Success");
    // The reply is in while the metrics call is still out there, hanging: it did not wait for it.
    let shipped = false;
    void settled().then(() => (shipped = true));
    await recorder.received(1);
    expect(shipped).toBe(false);
    expect(logs.some((l) => l.msg === "metrics dropped")).toBe(false);
    await settled(); // the timeout ends it; the batch is dropped and logged
    expect(logs.some((l) => l.msg === "metrics dropped")).toBe(true);
  });
});

describe("the metrics configuration", () => {
  it("is none unless asked for, and refuses what it cannot use", () => {
    expect(readConfig({}).metrics).toEqual({ sink: "none" });
    expect(readConfig({}, { metrics: "emf" }).metrics).toEqual({ sink: "emf", namespace: "crdshift" });
    expect(() => readConfig({ CRDSHIFT_METRICS: "statsd" })).toThrow(
      "CRDSHIFT_METRICS must be one of none, emf, cloudwatch",
    );
    expect(() => readConfig({ CRDSHIFT_METRICS: "cloudwatch" })).toThrow("needs a region");
    expect(() => readConfig({ CRDSHIFT_METRICS: "emf", CRDSHIFT_METRICS_NAMESPACE: "AWS/Lambda" })).toThrow(
      "must not start with AWS/",
    );
    expect(() =>
      readConfig({ CRDSHIFT_METRICS: "cloudwatch", AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "AKID" }),
    ).toThrow("must be set together");
  });
});
