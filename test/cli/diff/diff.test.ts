import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { runDiff } from "../../../src/cli/diff/diff-objects";
import { formatDiffText } from "../../../src/cli/diff/diff-report";
import { readObjects } from "../../../src/cli/diff/read-objects";
import { main } from "../../../src/cli/main";
import { registrySide, urlSide } from "../../../src/cli/webhook-call/conversion-side";
import { createRegistry, defineKind } from "../../../src/conversion";
import { testApp } from "../../helpers";
import { type LocalServer, serveApp, serveRaw } from "../local-server";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const DROPS_PORT = `${root}test/fixtures/port-dropping-registry.ts`;
const CA = `${root}test/fixtures/tls/localhost.crt`;

async function run(args: string[], stdin = "") {
  let stdout = "";
  let stderr = "";
  const code = await main(["diff", ...args], {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    stdin: () => stdin,
  });
  return { code, stdout, stderr };
}

const crontab = (version: string, name: string, fields: Record<string, unknown>) => ({
  apiVersion: `example.com/${version}`,
  kind: "CronTab",
  metadata: { name, namespace: "default", uid: `uid-${name}`, resourceVersion: "7", labels: { app: name } },
  ...fields,
});

/** What `kubectl get crontabs -A -o json` prints: a List (with one object of another kind mixed in). */
const list = JSON.stringify({
  apiVersion: "v1",
  kind: "List",
  items: [
    crontab("v1beta1", "beta", { hostPort: "localhost:1234" }),
    crontab("v1alpha1", "alpha", { endpoint: "example.com:2345" }),
    crontab("v1", "split", { host: "h", port: "80", protocol: "TCP" }),
    crontab("v1beta1", "empty", {}),
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" } },
    {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "kep" },
      spec: { cronSpec: "* * * * */5" },
    },
  ],
});

describe("crdshift diff between two registries", () => {
  it("a copy whose v1beta1 -> v1 converter drops port: exit 1, port named for the objects it touches, nothing else", async () => {
    const { code, stdout } = await run(["-f", "-", "--against", DROPS_PORT, "-o", "json"], list);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    const changed = report.objects.flatMap((o: any) =>
      o.versions.filter((v: any) => v.outcome !== "same").map((v: any) => [o.name, v.to, v.outcome, v.differences]),
    );
    expect(changed).toEqual([
      ["default/beta", "v1", "different", [{ path: "port", candidate: "1234" }]],
      ["default/alpha", "v1", "different", [{ path: "port", candidate: "2345" }]],
    ]);
    expect(report.changed).toBe(2);
    expect(report.skipped).toEqual([
      "document 1, item 4 (settings): not a custom resource with apiVersion group/version and kind",
    ]);
    expect(report.objects.map((o: any) => o.name)).toEqual([
      "default/beta",
      "default/alpha",
      "default/split",
      "default/empty",
      "kep",
    ]);
  });

  it("prints each change with both values, and a summary table", async () => {
    const { code, stdout } = await run(["-f", "-", "--registry", DROPS_PORT, "--against", "examples/index.ts"], list);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'default/beta (CronTab.example.com example.com/v1beta1, document 1, item 0)\n  v1: different\n    port: baseline "1234", candidate missing\n  v1alpha1: same\n',
    );
    expect(stdout).toContain(
      "default/split (CronTab.example.com example.com/v1, document 1, item 2): same in v1beta1, v1alpha1\n",
    );
    expect(stdout).toContain(
      [
        "kind                        to        same  different  failed in baseline  failed in candidate  failed in both",
        "CronTab.example.com         v1           1          2                   0                    0               0",
        "CronTab.example.com         v1beta1      2          0                   0                    0               0",
        "CronTab.example.com         v1alpha1     3          0                   0                    0               0",
        "CronTab.stable.example.com  v2           1          0                   0                    0               0",
      ].join("\n"),
    );
    expect(stdout).toMatch(/\ncrdshift diff: 2 of 9 conversions changed \(different, or failing on one side only\)\n$/);
  });

  it("exits 0 against itself", async () => {
    const { code, stdout } = await run(["-f", "-", "--against", "examples/index.ts"], list);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\ncrdshift diff: no change in 9 conversions of 5 objects\n$/);
  });

  it("a failure on one side only is a change; the same refusal on both sides is not", async () => {
    const gauge = (limit: number) =>
      defineKind({
        group: "gauges.example.com",
        kind: "Gauge",
        versions: {
          v1: z.looseObject({ max: z.optional(z.number()) }),
          v2: z.looseObject({ max: z.optional(z.number()) }),
        },
        converters: {
          v1: {
            v2: (o) => {
              if ((o.max ?? 0) < 0) throw new Error("max must not be negative");
              if ((o.max ?? 0) > limit) throw new Error(`max ${o.max} is over ${limit}`);
              return o;
            },
          },
          v2: { v1: (o) => o },
        },
      });
    const candidate = createRegistry([gauge(10)]);
    const objects = [5, 50, -1].map((max) => ({
      apiVersion: "gauges.example.com/v1",
      kind: "Gauge",
      metadata: { name: `g${max}` },
      max,
    }));
    const { objects: sources, skipped } = readObjects(objects, candidate);
    const report = await runDiff(sources, skipped, {
      candidate: registrySide("candidate", candidate),
      baseline: registrySide("baseline", createRegistry([gauge(100)])),
      versions: () => ["v1", "v2"],
    });
    expect(report.objects.map((o) => o.versions[0]!.outcome)).toEqual(["same", "candidate-failed", "both-failed"]);
    expect(report.changed).toBe(1);
    const text = formatDiffText(report);
    expect(text).toContain(
      "g50 (Gauge.gauges.example.com gauges.example.com/v1, document 2)\n  v2: failed in candidate only: conversion webhook for gauges.example.com/v1, Kind=Gauge failed: object 0 (g50) Gauge gauges.example.com/v1 -> gauges.example.com/v2: max 50 is over 10\n",
    );
  });
});

describe("crdshift diff against a running server", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await serveApp(testApp().app.fetch);
  });
  afterAll(() => server.close());

  it("recorded ConversionReview requests: the examples' server against the examples is the same, against the copy it is port", async () => {
    const request = readFileSync(`${root}examples/requests/docs-v1.json`, "utf8");
    const same = await run(["-f", "-", "--against", `${server.origin}/convert`, "--allow-http"], request);
    expect(same.stdout).toMatch(/crdshift diff: no change in 4 conversions of 2 objects\n$/);
    expect(same.code).toBe(0);
    const changed = await run(
      ["-f", "-", "--registry", DROPS_PORT, "--against", `${server.origin}/convert`, "--allow-http", "-o", "json"],
      request,
    );
    expect(changed.code).toBe(1);
    const report = JSON.parse(changed.stdout);
    expect(report.baseline).toBe(`${server.origin}/convert`);
    expect(report.objects.map((o: any) => o.versions.find((v: any) => v.to === "v1").differences)).toEqual([
      [{ path: "port", baseline: "1234" }],
      [{ path: "port", baseline: "2345" }],
    ]);
  });

  it("refuses a plain http URL without --allow-http (exit 2), and says so when nothing answers (exit 1)", async () => {
    expect(
      await run(["-f", "examples/objects/docs-v1beta1.yaml", "--against", `${server.origin}/convert`]),
    ).toMatchObject({
      code: 2,
      stderr:
        "crdshift: --against: 'https' is the only allowed URL scheme; desired format: https://host[/path]; add --allow-http to call a local server\n",
    });
    const down = await run([
      "-f",
      "examples/objects/docs-v1beta1.yaml",
      "--against",
      "http://127.0.0.1:1/convert",
      "--allow-http",
    ]);
    expect(down.code).toBe(1);
    expect(down.stdout).toBe("");
    expect(down.stderr).toMatch(
      /^crdshift diff: the baseline could not be called, nothing was compared: conversion webhook for example\.com\/v1beta1, Kind=CronTab failed: Post "http:\/\/127\.0\.0\.1:1\/convert\?timeout=30s": dial tcp 127\.0\.0\.1:1: connect: connection refused\n$/,
    );
  });

  it("over https: untrusted without --ca, trusted with it", async () => {
    const secure = await serveApp(testApp().app.fetch, { tls: true });
    try {
      const untrusted = await run([
        "-f",
        "examples/objects/docs-v1beta1.yaml",
        "--against",
        `${secure.origin}/convert`,
      ]);
      expect(untrusted.code).toBe(1);
      expect(untrusted.stderr).toContain("x509: certificate signed by unknown authority");
      const trusted = await run([
        "-f",
        "examples/objects/docs-v1beta1.yaml",
        "--against",
        `${secure.origin}/convert`,
        "--ca",
        CA,
      ]);
      expect(trusted.stdout).toMatch(/no change in 4 conversions of 2 objects\n$/);
      expect(trusted.code).toBe(0);
      expect(
        await run([
          "-f",
          "examples/objects/docs-v1beta1.yaml",
          "--against",
          `${secure.origin}/convert`,
          "--ca",
          "missing.pem",
        ]),
      ).toMatchObject({
        code: 2,
        stderr: "crdshift: cannot read --ca missing.pem: ENOENT\n",
      });
    } finally {
      await secure.close();
    }
  });

  it("compares what the apiserver keeps: metadata other than labels and annotations is restored, omitted labels are lost, empty ones are none", async () => {
    // A baseline that converts by rewriting apiVersion, but meddles with metadata.
    const meddling = await serveRaw((_req, res, body) => {
      const sent = JSON.parse(body);
      const convertedObjects = sent.request.objects.map((object: any) => {
        const metadata = { ...object.metadata, generation: 42, finalizers: ["x"] };
        if (metadata.labels?.drop) delete metadata.labels;
        if (!metadata.labels && metadata.name === "bare") metadata.labels = {}; // the same as none, to Kubernetes
        return { ...object, apiVersion: sent.request.desiredAPIVersion, metadata };
      });
      res.writeHead(200).end(
        JSON.stringify({
          apiVersion: sent.apiVersion,
          kind: "ConversionReview",
          response: { uid: sent.request.uid, result: { status: "Success" }, convertedObjects },
        }),
      );
    });
    const widget = defineKind({
      group: "widgets.example.com",
      kind: "Widget",
      versions: { v1: z.looseObject({}), v2: z.looseObject({}) },
      converters: { v1: { v2: (o) => o }, v2: { v1: (o) => o } },
    });
    const registry = createRegistry([widget]);
    const objects = ["keep", "drop", "bare"].map((name) => ({
      apiVersion: "widgets.example.com/v1",
      kind: "Widget",
      metadata: { name, generation: 1, ...(name === "bare" ? {} : { labels: { [name]: "yes" } }) },
    }));
    try {
      const { objects: sources } = readObjects(objects, registry);
      const report = await runDiff(sources, [], {
        candidate: registrySide("registry", registry),
        baseline: urlSide("meddling", `${meddling.origin}/convert`),
        versions: () => ["v1", "v2"],
      });
      expect(report.objects.map((o) => o.versions[0])).toEqual([
        { to: "v2", outcome: "same" },
        { to: "v2", outcome: "different", differences: [{ path: "metadata.labels", candidate: { drop: "yes" } }] },
        { to: "v2", outcome: "same" },
      ]);
    } finally {
      await meddling.close();
    }
  });
});
