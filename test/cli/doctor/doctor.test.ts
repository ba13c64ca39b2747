import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import * as z from "zod/mini";
import { registry as exampleRegistry } from "../../../examples";
import { runDoctor } from "../../../src/cli/doctor/doctor-checks";
import type { Finding } from "../../../src/cli/doctor/finding";
import { main } from "../../../src/cli/main";
import { createRegistry, defineKind } from "../../../src/conversion";
import { testApp } from "../../helpers";
import { closedPort, type LocalServer, serveApp, serveRaw, TEST_CERT } from "../local-server";

const root = new URL("../../../", import.meta.url);
const exampleCrd = () => parse(readFileSync(new URL("examples/crds/crontabs.example.com.yaml", root), "utf8"));

async function doctor(crd: unknown, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(["doctor", "-f", "-", "-o", "json", ...args], {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    stdin: () => JSON.stringify(crd),
  });
  const report = stdout ? JSON.parse(stdout) : undefined;
  const findings: Finding[] = report ? report.crds.flatMap((c: { findings: Finding[] }) => c.findings) : [];
  return { code, stderr, report, findings, problems: findings.filter((f) => f.severity !== "info") };
}

const codes = (findings: Finding[]) => findings.map((f) => `${f.severity} ${f.code}`);

describe("crdshift doctor against a running server", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await serveApp(testApp().app.fetch);
  });
  afterAll(() => server.close());

  it("on the examples' CRD with --allow-http, reports only the http error", async () => {
    const { code, problems, findings } = await doctor(
      exampleCrd(),
      "--url",
      `${server.origin}/convert`,
      "--allow-http",
    );
    expect(codes(problems)).toEqual(["error http-url"]);
    expect(problems[0]!.message).toContain(`${server.origin}/convert is plain http`);
    expect(code).toBe(1);
    // It did probe: every pair of the three served versions, each reply accepted.
    expect(findings.find((f) => f.code === "probe-ok")?.message).toMatch(
      /^18 v1 ConversionReviews over 6 ordered pairs/,
    );
    expect(findings.find((f) => f.code === "latency")?.message).toMatch(/^18 calls: first /);
  });

  it("prints the findings for a person, each error with its fix", async () => {
    let stdout = "";
    const code = await main(
      [
        "doctor",
        "-f",
        "examples/crds/crontabs.example.com.yaml",
        "--url",
        `${server.origin}/convert`,
        "--allow-http",
        "--objects",
        "1",
      ],
      {
        out: (t) => (stdout += t),
        err: () => {},
        stdin: () => "",
      },
    );
    expect(code).toBe(1);
    expect(stdout).toContain(
      `crontabs.example.com (CronTab.example.com, probed ${server.origin}/convert)\n  ERROR    http-url: `,
    );
    expect(stdout).toMatch(/\n {11}fix: serve the webhook over https/);
    expect(stdout).toMatch(/crdshift doctor: 1 error, 0 warnings\n$/);
  });

  it("does not call a plain http URL without --allow-http", async () => {
    const { code, findings } = await doctor(exampleCrd(), "--url", `${server.origin}/convert`);
    expect(code).toBe(1);
    expect(findings.find((f) => f.code === "http-url")?.message).toMatch(/not probed$/);
    expect(findings.some((f) => f.code === "latency")).toBe(false);
  });

  it("a storedVersions entry the registry lacks: exit 1, naming it", async () => {
    const crd = { ...exampleCrd(), status: { storedVersions: ["v1", "v1alpha0"] } };
    const { code, problems } = await doctor(crd, "--url", `${server.origin}/convert`, "--allow-http");
    expect(code).toBe(1);
    expect(codes(problems)).toEqual(["error stored-version-not-in-registry", "error http-url"]);
    expect(problems[0]!.message).toMatch(
      /^status\.storedVersions lists v1alpha0, which the registry lacks: objects stored in v1alpha0 cannot be converted/,
    );
  });

  it("with a path token: the wrong token is the apiserver's 404, the right one passes; the token is never printed", async () => {
    const token = "doctor-test-token-0123456789";
    const tokened = await serveApp(testApp({ env: { CRDSHIFT_TOKEN: token } }).app.fetch);
    try {
      const wrong = await doctor(
        exampleCrd(),
        "--url",
        `${tokened.origin}/convert/not-the-token-000000`,
        "--allow-http",
        "--objects",
        "1",
      );
      const rejected = wrong.findings.filter((f) => f.code === "reply-rejected");
      expect(rejected).toHaveLength(6); // one per pair
      expect(rejected[0]!.message).toContain("the server could not find the requested resource");
      const right = await doctor(
        exampleCrd(),
        "--url",
        `${tokened.origin}/convert/${token}`,
        "--allow-http",
        "--objects",
        "1",
      );
      expect(codes(right.problems)).toEqual(["error http-url"]);
      expect(JSON.stringify(right.report)).not.toContain(token);
      expect(right.report.crds[0].probed).toBe(`${tokened.origin}/convert/<token>`);
    } finally {
      await tokened.close();
    }
  });
});

describe("crdshift doctor: replies the apiserver would not take", () => {
  const widget = (extra: Record<string, unknown> = {}) =>
    defineKind({
      group: "widgets.example.com",
      kind: "Widget",
      versions: {
        v1: z.looseObject({ size: z.optional(z.number()) }),
        v2: z.looseObject({ size: z.optional(z.number()) }),
      },
      converters: { v1: { v2: (o) => ({ ...o, ...extra }) }, v2: { v1: (o) => ({ ...o, ...extra }) } },
    });
  const widgetCrd = (url = "https://widgets.example.workers.dev/convert") => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.widgets.example.com" },
    spec: {
      group: "widgets.example.com",
      scope: "Namespaced",
      names: { kind: "Widget", plural: "widgets" },
      versions: [
        { name: "v1", served: true, storage: true },
        { name: "v2", served: true, storage: false },
      ],
      conversion: { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url } } },
    },
    status: { storedVersions: ["v1"] },
  });
  const registry = createRegistry([widget()]);

  it("a reply with another uid: the apiserver's own message, per pair", async () => {
    const server = await serveRaw((req, res, body) => {
      if (req.method !== "POST") return void res.writeHead(404).end(); // doctor's GET /healthz
      const sent = JSON.parse(body);
      res.writeHead(200).end(
        JSON.stringify({
          apiVersion: sent.apiVersion,
          kind: "ConversionReview",
          response: { uid: "not-the-uid", result: { status: "Success" }, convertedObjects: [] },
        }),
      );
    });
    try {
      const report = await runDoctor(registry, [widgetCrd()], "test", {
        url: `${server.origin}/convert`,
        allowHttp: true,
        objectsPerPair: 1,
      });
      const rejected = report.crds[0]!.findings.filter((f) => f.code === "reply-rejected");
      expect(rejected.map((f) => f.message.split(":")[0])).toEqual(["v1 → v2", "v2 → v1"]);
      expect(rejected[0]!.message).toMatch(
        /the apiserver would fail the conversion: conversion webhook for widgets\.example\.com\/v1, Kind=Widget failed: expected response\.uid="[0-9a-f-]{36}", got "not-the-uid"$/,
      );
      expect(report.errors).toBe(3); // and the http URL
    } finally {
      await server.close();
    }
  });

  it("a webhook running other converters: a warning naming the field", async () => {
    const deployed = await serveApp(testApp({ registry: createRegistry([widget({ colour: "red" })]) }).app.fetch);
    try {
      const report = await runDoctor(registry, [widgetCrd()], "test", {
        url: `${deployed.origin}/convert`,
        allowHttp: true,
        objectsPerPair: 2,
      });
      const differs = report.crds[0]!.findings.filter((f) => f.code === "differs-from-registry");
      expect(differs.map((f) => f.severity)).toEqual(["warning", "warning"]);
      expect(differs[0]!.message).toMatch(
        /^v1 → v2: the webhook's result differs from the registry's at colour: "red" from the webhook, missing from the registry/,
      );
    } finally {
      await deployed.close();
    }
  });

  it("no answer within the timeout: the apiserver's deadline message", async () => {
    const silent = await serveRaw(() => {}); // never answers
    try {
      const report = await runDoctor(registry, [widgetCrd()], "test", {
        url: `${silent.origin}/convert`,
        allowHttp: true,
        timeoutMs: 200,
      });
      const timeout = report.crds[0]!.findings.filter((f) => f.code === "probe-timeout");
      expect(timeout.map((f) => f.message)).toEqual([
        `conversion webhook for widgets.example.com/v1, Kind=Widget failed: Post "${silent.origin}/convert?timeout=30s": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
      ]);
    } finally {
      await silent.close();
    }
  });

  it("nothing listening: unreachable, with the URL, and no further calls", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/convert`;
    const report = await runDoctor(registry, [widgetCrd()], "test", { url, allowHttp: true });
    const unreachable = report.crds[0]!.findings.filter((f) => f.code === "probe-unreachable");
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0]!.message).toBe(
      `conversion webhook for widgets.example.com/v1, Kind=Widget failed: Post "${url}?timeout=30s": dial tcp ${url.slice(7, -8)}: connect: connection refused`,
    );
  });
});

describe("crdshift doctor over https: the certificate as the apiserver judges it", () => {
  let server: LocalServer;
  let crd: any;
  beforeAll(async () => {
    server = await serveApp(testApp().app.fetch, { tls: true });
    crd = exampleCrd();
    crd.spec.conversion.webhook.clientConfig.url = `${server.origin}/convert`;
  });
  afterAll(() => server.close());

  it("a self-signed certificate and an empty caBundle: untrusted by the system roots", async () => {
    const { code, problems, findings } = await doctor(crd, "--objects", "1");
    expect(code).toBe(1);
    expect(codes(problems)).toEqual(["warning url-loopback", "error tls-untrusted"]);
    expect(problems[1]!.message).toMatch(
      /^the server's certificate \(crdshift test server, issued by crdshift test server\) is not trusted by the system roots \(the CRD's caBundle is empty\): x509: certificate signed by unknown authority \(DEPTH_ZERO_SELF_SIGNED_CERT\); the apiserver fails every call$/,
    );
    expect(problems[1]!.fix).toMatch(/^set spec\.conversion\.webhook\.clientConfig\.caBundle to the base64/);
    // The replies themselves were fine.
    expect(findings.some((f) => f.code === "reply-rejected")).toBe(false);
  });

  it("the same certificate as the caBundle: trusted, with its days to expiry", async () => {
    const trusted = structuredClone(crd);
    trusted.spec.conversion.webhook.clientConfig.caBundle = Buffer.from(TEST_CERT).toString("base64");
    const { code, problems, findings } = await doctor(trusted, "--objects", "1");
    expect(codes(problems)).toEqual(["warning url-loopback"]);
    expect(code).toBe(0);
    expect(findings.find((f) => f.code === "tls-certificate")?.message).toMatch(
      /^certificate for IP Address:127\.0\.0\.1, DNS:localhost, issued by crdshift test server, valid until .* \(\d+ days\), TLSv1\.3$/,
    );
    expect(findings.some((f) => f.code === "probe-ok")).toBe(true);
  });

  it("another CA in the caBundle (a rotated one): untrusted, and says the CA may have rotated", async () => {
    const other = structuredClone(crd);
    other.spec.conversion.webhook.clientConfig.caBundle = Buffer.from(otherCa()).toString("base64");
    const { problems } = await doctor(other, "--objects", "1");
    const untrusted = problems.find((f) => f.code === "tls-untrusted")!;
    expect(untrusted.message).toContain("is not trusted by the CRD's caBundle");
    expect(untrusted.fix).toContain("the CA may have been rotated");
  });

  it("days to expiry: a warning within 30 days, an error once past", async () => {
    const trusted = structuredClone(crd);
    trusted.spec.conversion.webhook.clientConfig.caBundle = Buffer.from(TEST_CERT).toString("base64");
    const end = Date.parse(new X509Certificate(TEST_CERT).validTo);
    const soon = await runDoctor(exampleRegistry, [trusted], "test", {
      objectsPerPair: 1,
      now: new Date(end - 10.5 * 86_400_000),
    });
    const found = soon.crds[0]!.findings;
    expect(found.find((f) => f.code === "tls-expires-soon")?.message).toMatch(/expires in 10 days/);
    expect(found.find((f) => f.code === "cabundle-expires-soon")?.severity).toBe("warning");
    const late = await runDoctor(exampleRegistry, [trusted], "test", {
      objectsPerPair: 1,
      now: new Date(end + 86_400_000),
    });
    expect(late.crds[0]!.findings.filter((f) => f.severity === "error").map((f) => f.code)).toEqual([
      "cabundle-expired",
      "tls-expired",
    ]);
  });
});

/** A CA that did not sign the test certificate (test/fixtures/tls/README.md). */
function otherCa(): string {
  return readFileSync(new URL("test/fixtures/tls/other-ca.crt", root), "utf8");
}
