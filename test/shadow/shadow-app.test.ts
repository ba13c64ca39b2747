import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { registry } from "../../examples";
import { createApp } from "../../src/server/app";
import { readConfig } from "../../src/server/config";
import type { LogRecord } from "../../src/log";
import type { Metrics, MeasuredShadow } from "../../src/metrics";
import type { Registry } from "../../src/conversion";
import { hostile } from "../fixtures/hostile-registries";
import { registry as dropsPort } from "../fixtures/port-dropping-registry";

// The Hono app (Workers, Lambda, and Node's other requests) with a shadow candidate: what it
// counts and logs, and that its replies are the ones it gives without one.

const docsV1 = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");

function shadowed(
  candidate: Registry | undefined,
  env: Record<string, string> = { CRDSHIFT_SHADOW_SAMPLE: "1" },
  live: Registry = registry,
) {
  const logs: LogRecord[] = [];
  const shadows: MeasuredShadow[] = [];
  const after: Array<Promise<void>> = [];
  const metrics: Metrics = {
    review: () => {},
    rejected: () => {},
    shadow: (outcome) => shadows.push(outcome),
    pending: () => undefined,
  };
  const app = createApp({
    registry: live,
    config: readConfig(env),
    log: (record) => logs.push(record),
    metrics,
    defer: (_, work) => after.push(work),
    ...(candidate ? { shadow: candidate } : {}),
  });
  const post = async (body: string) => {
    const res = await app.request("http://crdshift.test/convert?timeout=30s", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    return { status: res.status, headers: headerList(res.headers), body: await res.text() };
  };
  const settled = async () => {
    await Promise.all(after.splice(0));
  };
  return { app, post, logs, shadows, settled };
}

const shadowLines = (logs: LogRecord[]) => logs.filter((record) => String(record.msg).startsWith("shadow"));

describe("a webhook with a shadow candidate", () => {
  it("counts and logs the objects the candidate converts otherwise, by uid and JSON path, without values", async () => {
    const { post, logs, shadows, settled } = shadowed(dropsPort);
    const plain = await shadowed(undefined).post(docsV1);
    expect(await post(docsV1)).toEqual(plain);
    await settled();
    expect(shadows).toEqual([{ crd: "CronTab.example.com", from: "v1beta1", to: "v1", differences: 2, failed: false }]);
    expect(shadowLines(logs)).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "shadow difference",
        uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
        object: 0,
        objectUid: "3415a7fc-162b-4300-b5da-fd6083580d66",
        paths: ["port"],
        differing: 2,
      }),
      expect.objectContaining({ msg: "shadow difference", object: 1, paths: ["port"] }),
    ]);
    // The ports the live reply holds, and the host, appear nowhere in the logs.
    const logged = JSON.stringify(logs);
    for (const value of ["1234", "localhost", 'example.com\\/v1"']) expect(logged).not.toContain(value);
  });

  it("counts nothing where the candidate agrees, and is off at CRDSHIFT_SHADOW_SAMPLE=0", async () => {
    const same = shadowed(registry);
    await same.post(docsV1);
    await same.settled();
    expect(same.shadows).toEqual([
      { crd: "CronTab.example.com", from: "v1beta1", to: "v1", differences: 0, failed: false },
    ]);
    expect(shadowLines(same.logs)).toEqual([]);

    const off = shadowed(dropsPort, { CRDSHIFT_SHADOW_SAMPLE: "0" });
    await off.post(docsV1);
    await off.settled();
    expect(off.shadows).toEqual([]);
    expect(await (await off.app.request("http://x/healthz")).json()).toEqual({ status: "ok" });
  });

  it("says so on /healthz, with its sample rate", async () => {
    const { app } = shadowed(dropsPort, { CRDSHIFT_SHADOW_SAMPLE: "0.25" });
    expect(await (await app.request("http://x/healthz")).json()).toEqual({ status: "ok", shadow: { sample: 0.25 } });
    const { app: defaults } = shadowed(dropsPort, {});
    expect(await (await defaults.request("http://x/healthz")).json()).toEqual({
      status: "ok",
      shadow: { sample: 0.01 },
    });
  });

  it("counts a candidate that throws as failed, and logs no message of it", async () => {
    const { post, logs, shadows, settled } = shadowed(hostile.throws());
    const plain = await shadowed(undefined).post(docsV1);
    expect(await post(docsV1)).toEqual(plain);
    await settled();
    expect(shadows).toEqual([expect.objectContaining({ differences: 0, failed: true })]);
    expect(shadowLines(logs)).toEqual([
      expect.objectContaining({ msg: "shadow candidate failed", reason: "failed", cause: "converter-error" }),
    ]);
    expect(JSON.stringify(logs)).not.toContain("candidate broke");
  });

  it("counts where only the live reply failed as a difference of every object", async () => {
    const { post, logs, shadows, settled } = shadowed(registry, { CRDSHIFT_SHADOW_SAMPLE: "1" }, hostile.throws());
    await post(docsV1);
    await settled();
    expect(shadows).toEqual([expect.objectContaining({ differences: 2, failed: false })]);
    expect(shadowLines(logs)).toEqual([expect.objectContaining({ msg: "shadow difference", liveFailed: true })]);
  });

  it("tells nothing where both fail", async () => {
    const failing = docsV1.replace('"desiredAPIVersion": "example.com/v1"', '"desiredAPIVersion": "example.com/v9"');
    const { post, logs, shadows, settled } = shadowed(dropsPort);
    await post(failing);
    await settled();
    expect(shadows).toEqual([expect.objectContaining({ differences: 0, failed: false })]);
    expect(shadowLines(logs)).toEqual([]);
  });
});

function headerList(headers: Headers): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  headers.forEach((value, name) => list.push([name, value]));
  return list;
}
