import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { registry as exampleRegistry } from "../../examples";
import { createApp } from "../../src/server/app";
import { clip, ECHO_LIMIT } from "../../src/json/clip";
import { readConfig } from "../../src/server/config";
import { createJsonLogger } from "../../src/log";
import { createEmfMetrics } from "../../src/metrics";
import { createRegistry, defineKind, type Registry } from "../../src/conversion";
import { cronTab, post, review, wire } from "../helpers";
import { emfProblems } from "../metrics/emf-spec";

// Large, yet under the 1 MiB past which a body is scanned before it is parsed and an envelope of
// over 64 KiB is refused outright (test/app/limits.test.ts): here the fields reach the logs.
const HUGE = 512 * 1024;
/** What one echoed field may take in a line or message: the limit and its `... (N more characters)`. */
const FIELD = ECHO_LIMIT + 40;

/** The app as the platforms build it, logging JSON lines and EMF metrics into arrays. */
function observedApp(options: { registry?: Registry; env?: Record<string, string> } = {}) {
  const lines: string[] = [];
  const emf: string[] = [];
  const app = createApp({
    registry: options.registry ?? exampleRegistry,
    config: readConfig({ CRDSHIFT_METRICS: "emf", ...options.env }),
    log: createJsonLogger((line) => lines.push(line)),
    metrics: createEmfMetrics({ namespace: "crdshift", write: (line) => emf.push(line) }),
  });
  return { app, lines, emf };
}

/** Every EMF line is valid, and no dimension value exceeds CloudWatch's 1,024 ASCII characters. */
function expectDimensionsBounded(emf: string[]) {
  expect(emf.length).toBeGreaterThan(0);
  for (const line of emf) {
    expect(emfProblems(line)).toEqual([]);
    expect(line.length).toBeLessThan(4 * 1024);
  }
}

/** The longest log line's length; with no line at all a failure, not -Infinity that any bound passes. */
function longestLine(lines: string[]): number {
  expect(lines.length, "no log line was written").toBeGreaterThan(0);
  return Math.max(...lines.map((line) => line.length));
}

describe("request text echoed in logs, metrics and messages is bounded", () => {
  it("a 512 KiB uid: the log line is short, the reply still carries the whole uid", async () => {
    const { app, lines, emf } = observedApp({ env: { CRDSHIFT_LOG_REVIEWS: "all" } });
    const sent = review("example.com/v1", [cronTab("v1beta1", "a", { hostPort: "h:1" })]);
    sent.request.uid = "u".repeat(HUGE);
    const res = await post(app, wire(sent));
    const reply = await res.json();
    expect(reply.response.result.status).toBe("Success");
    expect(reply.response.uid).toBe(sent.request.uid); // the apiserver compares it: not an echo
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeLessThan(2 * 1024);
    expect(JSON.parse(lines[0]!).uid).toBe(clip(sent.request.uid));
    expectDimensionsBounded(emf);
  });

  for (const [name, desired] of [
    ["not of the form group/version", "v".repeat(HUGE)],
    ["of another group", `${"g".repeat(HUGE)}.com/v1`],
    ["an unknown version", `example.com/${"v".repeat(HUGE)}`],
  ] as const) {
    it(`a 512 KiB desiredAPIVersion ${name}: a short Failure, a short log line, bounded dimensions`, async () => {
      const { app, lines, emf } = observedApp();
      const sent = review(desired, [
        cronTab("v1beta1", "a", { hostPort: "h:1" }),
        cronTab("v1beta1", "b", { hostPort: "h:2" }),
      ]);
      const res = await post(app, wire(sent));
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(JSON.parse(text).response.result.status).toBe("Failure");
      expect(text.length).toBeLessThan(4 * FIELD);
      expect(longestLine(lines)).toBeLessThan(8 * FIELD);
      expectDimensionsBounded(emf);
    });
  }

  it("a 512 KiB kind, apiVersion, name, namespace and uid: bounded message, log line and dimensions", async () => {
    const { app, lines, emf } = observedApp({ env: { CRDSHIFT_LOG_OBJECT_NAMES: "true" } });
    const big = (c: string) => c.repeat(HUGE);
    const objects = [
      {
        apiVersion: "example.com/v1beta1",
        kind: big("K"),
        metadata: { name: big("n"), namespace: big("s"), uid: big("i") },
      },
      { apiVersion: `${big("g")}.com/v1beta1`, kind: "CronTab", metadata: { name: "b" } },
      { apiVersion: `example.com/${big("v")}`, kind: "CronTab", metadata: { name: "c" } },
    ];
    for (const first of objects) {
      lines.length = 0;
      emf.length = 0;
      const res = await post(app, wire(review("example.com/v1", [first, ...objects])));
      const text = await res.text();
      expect(JSON.parse(text).response.result.status).toBe("Failure");
      expect(text.length).toBeLessThan(10 * FIELD);
      expect(longestLine(lines)).toBeLessThan(30 * FIELD);
      expectDimensionsBounded(emf);
    }
  });

  it("thousands of distinct kinds in one review: the log names a few and counts the rest", async () => {
    const { app, lines } = observedApp();
    const objects = Array.from({ length: 5000 }, (_, i) => ({
      apiVersion: "example.com/v1beta1",
      kind: `Kind${i}${"k".repeat(300)}`,
      metadata: { name: `o${i}` },
    }));
    await post(app, wire(review("example.com/v1", objects)));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeLessThan(16 * FIELD);
    const kinds = JSON.parse(lines[0]!).kinds as string[];
    expect(kinds.at(-1)).toMatch(/^\.\.\. and \d+ more$/);
  });

  it("a kind that is not ASCII, and an empty version, still make dimensions CloudWatch takes", async () => {
    const { app, emf } = observedApp();
    await post(
      app,
      wire(review("example.com/", [{ apiVersion: "example.com/v1beta1", kind: "Crön😀Tab", metadata: { name: "a" } }])),
    );
    expectDimensionsBounded(emf);
    const doc = JSON.parse(emf[0]!);
    expect(doc.CRD).toMatch(/^[\x20-\x7e]+$/);
    expect(doc.To).not.toBe("");
  });

  it("a converter's error, a schema issue and a label key are clipped in the Failure message", async () => {
    const echoing = defineKind({
      group: "echo.example.com",
      kind: "Echo",
      versions: {
        v1: z.looseObject({ spec: z.looseObject({ say: z.string() }) }),
        v2: z.looseObject({ spec: z.record(z.string(), z.number()) }),
      },
      converters: {
        v1: {
          v2: (object) => {
            if (object.spec.say === "throw") throw new Error(`cannot convert ${JSON.stringify(object)}`);
            if (object.spec.say === "label")
              return { ...object, metadata: { name: "e", labels: { [`${"l".repeat(HUGE)}/x`]: "y" } }, spec: {} };
            return { ...object, spec: { [object.spec.say]: "not a number" as unknown as number } };
          },
        },
        v2: { v1: (object) => ({ ...object, spec: { say: "" } }) },
      },
    });
    const { app, lines } = observedApp({ registry: createRegistry([echoing]) });
    const padding = "p".repeat(HUGE);
    for (const say of ["throw", "label", padding]) {
      lines.length = 0;
      const object = {
        apiVersion: "echo.example.com/v1",
        kind: "Echo",
        metadata: { name: "e" },
        spec: { say, padding },
      };
      const res = await post(app, wire(review("echo.example.com/v2", [object])));
      const text = await res.text();
      expect(JSON.parse(text).response.result.status).toBe("Failure");
      expect(text.length).toBeLessThan(16 * FIELD);
      expect(longestLine(lines)).toBeLessThan(24 * FIELD);
    }
  });
});
