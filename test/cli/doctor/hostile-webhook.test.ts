import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { registry } from "../../../examples";
import { runDoctor } from "../../../src/cli/doctor/doctor-checks";
import { main } from "../../../src/cli/main";
import { testApp } from "../../helpers";
import { type LocalServer, serveApp, serveRaw } from "../local-server";

const CRD = readFileSync(new URL("../../../examples/crds/crontabs.example.com.yaml", import.meta.url), "utf8");
/** Bytes a terminal acts on: they clear the screen and return to the line's start. */
const CLEAR = "\u001b[2J\u001b[H\r";

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A webhook answering each review with `reply(uid)`, and `/healthz` with `health`. */
async function webhook(
  reply: (uid: string) => unknown,
  health: (res: ServerResponse) => void = (res) => void res.writeHead(404).end(),
) {
  server = await serveRaw((req: IncomingMessage, res, body) => {
    if (req.method !== "POST") return health(res);
    const uid = JSON.parse(body).request.uid as string;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply(uid)));
  });
  return `${server.origin}/convert`;
}

const failure = (uid: string, message: string) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "ConversionReview",
  response: { uid, result: { status: "Failure", message } },
});

async function doctor(url: string, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(["doctor", "-f", "-", "--url", url, "--allow-http", "--objects", "1", ...args], {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    stdin: () => CRD,
  });
  return { code, stdout, stderr };
}

/** What a terminal would be given: never a control byte but the line ends, and little of it. */
function expectPrintable(text: string) {
  expect(text.replace(/\n/g, "")).not.toMatch(/\p{Cc}/u);
  expect(text.length).toBeLessThan(64 * 1024);
}

describe("crdshift doctor against a hostile webhook", { timeout: 60_000 }, () => {
  it("a Failure message of a megabyte of escape sequences: each finding clipped, its controls escaped", async () => {
    const url = await webhook((uid) => failure(uid, CLEAR.repeat(200_000)));
    const text = await doctor(url);
    expect(text.code).toBe(1);
    expectPrintable(text.stdout);
    expect(text.stdout).toMatch(/ERROR {4}reply-rejected: v1 → v1beta1: .* failed: \\x1b\[2J\\x1b\[H\\r\\x1b\[2J/);
    // What was left out is counted from the webhook's message itself.
    expect(text.stdout).toMatch(/\.\.\. \(159\d{4} more characters\)\n/);
    const json = await doctor(url, "-o", "json");
    expect(json.code).toBe(1);
    expectPrintable(json.stdout);
    const messages = JSON.parse(json.stdout).crds[0].findings.map((f: { message: string }) => f.message);
    expect(messages.filter((m: string) => m.includes("failed: \\x1b[2J\\x1b[H\\r"))).toHaveLength(6);
  });

  it("a reply uid of 100,000 characters: the apiserver's mismatch message, clipped", async () => {
    const url = await webhook(() => ({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      response: { uid: `${"u".repeat(100_000)}${CLEAR}`, result: { status: "Success" }, convertedObjects: [] },
    }));
    const { code, stdout } = await doctor(url);
    expect(code).toBe(1);
    expectPrintable(stdout);
    expect(stdout).toMatch(/expected response\.uid="[0-9a-f-]{36}", got "u{100,}\.\.\. \(\d+ more characters\)/);
  });

  it("a /healthz that drips a byte a second: given up at its deadline, the report printed", async () => {
    const drips: NodeJS.Timeout[] = [];
    const url = await webhook(
      (uid) => failure(uid, "not converted here"),
      (res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
        drips.push(setInterval(() => res.write(" "), 1_000));
      },
    );
    try {
      // Waits at most the health deadline (5 s), whatever the server does, then reports.
      const { code, stdout } = await doctor(url);
      expect(code).toBe(1);
      expect(stdout).toMatch(/reply-rejected: v1beta1 → v1: .*not converted here/);
      expect(stdout).not.toContain("shadow");
    } finally {
      for (const drip of drips) clearInterval(drip);
    }
  });

  it("a webhook that answers each call just inside its deadline: stopped once the calls together take two", async () => {
    const { app } = testApp();
    // Right answers, each after most of a call's deadline.
    server = await serveApp(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return app.fetch(request);
    });
    const report = await runDoctor(registry, [parse(CRD)], "crd.yaml", {
      url: `${server.origin}/convert`,
      allowHttp: true,
      timeoutMs: 5_000,
    });
    const findings = report.crds[0]!.findings;
    const stopped = findings.find((f) => f.code === "probe-stopped");
    expect(stopped?.message).toMatch(/^stopped after [1-5] of 18 calls: together they took more than 10 s$/);
    expect(findings.some((f) => f.code === "reply-rejected" || f.code === "probe-timeout")).toBe(false);
  });

  it("replies of 5 MiB to the calls that time a cache's fill: not read past 4 MiB, and not estimated", async () => {
    const app = testApp().app;
    let reviews = 0;
    server = await serveApp(async (request) => {
      if (request.method !== "POST") return app.fetch(request);
      // The probe's six reviews (three versions, one object a pair) are answered; the fill's are not.
      if (++reviews <= 6) return app.fetch(request);
      return new Response(JSON.stringify({ padding: "x".repeat(5 * 1024 * 1024) }), {
        headers: { "content-type": "application/json" },
      });
    });
    const { stdout } = await doctor(`${server.origin}/convert`, "--stored", "1000", "-o", "json");
    const findings: { code: string; message: string }[] = JSON.parse(stdout).crds[0].findings;
    expect(findings.find((finding) => finding.code === "probe-ok")).toBeDefined();
    expect(findings.find((finding) => finding.code.startsWith("fill-"))).toEqual({
      severity: "info",
      code: "fill-not-estimated",
      message: expect.stringMatching(
        /^the watch cache fill was not timed: a call failed: .*: the reply is larger than 4194304 bytes$/,
      ),
    });
  });

  it("a webhook slow enough that the fill's calls outlast their budget: cut short, estimated from what was timed", async () => {
    const { app } = testApp();
    let reviews = 0;
    server = await serveApp(async (request) => {
      if (request.method === "POST") reviews++;
      await new Promise((resolve) => setTimeout(resolve, 250));
      return app.fetch(request);
    });
    const started = performance.now();
    const report = await runDoctor(registry, [parse(CRD)], "crd.yaml", {
      url: `${server.origin}/convert`,
      allowHttp: true,
      objectsPerPair: 1,
      timeoutMs: 1_500,
      stored: { count: 1000 },
    });
    const elapsed = performance.now() - started;
    const findings = report.crds[0]!.findings;
    expect(findings.find((f) => f.code === "fill-measured")?.message).toMatch(
      /; cut short by the probe's time budget$/,
    );
    expect(findings.find((f) => f.code === "fill-estimate")?.figures?.oneAtATimeMs).toBeGreaterThan(1000 * 250);
    // Six probe calls, then the fill's: none starts after 1.5 s. All 81 would take 6.75 s more.
    expect(reviews).toBeLessThan(6 + 40);
    expect(elapsed).toBeLessThan(7_000);
  });
});
