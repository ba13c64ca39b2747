import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { createApp } from "../../src/server/app";
import { readConfig } from "../../src/server/config";
import { type LogRecord, silentLogger } from "../../src/log";
import { createRegistry, defineKind } from "../../src/conversion";
import { convertFails, convertOk, review } from "../helpers";

const objects = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    apiVersion: "budget.example.com/v1",
    kind: "Job",
    metadata: { name: `j${i}` },
  }));

function kind(v1ToV2: (o: any) => any) {
  return createRegistry([
    defineKind({
      group: "budget.example.com",
      kind: "Job",
      versions: { v1: z.looseObject({}), v2: z.looseObject({}) },
      converters: { v1: { v2: v1ToV2 }, v2: { v1: (o) => o } },
    }),
  ]);
}

describe("the time budget of a review", () => {
  it("a converter that never settles fails at the budget, not at the platform's timeout", async () => {
    const app = createApp({
      registry: kind(() => new Promise(() => {})),
      config: readConfig({ CRDSHIFT_BUDGET_MS: "60" }),
      log: silentLogger,
      now: () => Date.now(), // read when called: the fake clock below
    });
    // On fake time: the reply is there at 60 ms, and not before.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      let settled = false;
      const failed = convertFails(app, review("budget.example.com/v2", objects(3))).finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(59);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await failed).toBe(
        "conversion budget of 60 ms exceeded after 0 of 3 objects (Job budget.example.com/v1 -> budget.example.com/v2)",
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("a slow async converter is stopped between objects, saying how far it got", async () => {
    const app = createApp({
      registry: kind(async (o) => (await new Promise((r) => setTimeout(r, 30)), o)),
      config: readConfig({ CRDSHIFT_BUDGET_MS: "100" }),
      log: silentLogger,
      now: () => Date.now(), // read when called: the fake clock below
    });
    // On fake time, where 30 ms is 30 ms however loaded the machine: three objects by 90 ms, the
    // fourth still running at 100.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const failed = convertFails(app, review("budget.example.com/v2", objects(20)));
      await vi.advanceTimersByTimeAsync(100);
      expect(await failed).toBe(
        "conversion budget of 100 ms exceeded after 3 of 20 objects (Job budget.example.com/v1 -> budget.example.com/v2)",
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("the first request of an instance pays for its cold start; the next ones do not", async () => {
    let clock = 1_000_000;
    const logs: LogRecord[] = [];
    const app = createApp({
      registry: kind((o) => ((clock += 1000), o)), // each object takes a second
      config: readConfig({ CRDSHIFT_BUDGET_MS: "25000" }),
      log: (r) => logs.push(r),
      now: () => clock,
      startedAt: clock - 3000, // the instance spent 3 s starting before this first request
    });
    expect(await convertFails(app, review("budget.example.com/v2", objects(30)))).toBe(
      "conversion budget of 22000 ms exceeded after 23 of 30 objects (Job budget.example.com/v1 -> budget.example.com/v2)",
    );
    expect(await convertFails(app, review("budget.example.com/v2", objects(30)))).toMatch(
      /^conversion budget of 25000 ms exceeded after 26 of 30/,
    );
    expect(logs.map((r) => r.cold)).toEqual([true, false]);
  });

  it("never runs past the platform's own deadline", async () => {
    let clock = 0;
    const app = createApp({
      registry: kind((o) => ((clock += 100), o)),
      config: readConfig({}),
      log: silentLogger,
      now: () => clock,
      platformDeadline: () => clock + 450,
    });
    expect(await convertFails(app, review("budget.example.com/v2", objects(10)))).toMatch(
      /^conversion budget of 450 ms exceeded after 5 of 10 objects/,
    );
    await convertOk(app, review("budget.example.com/v2", objects(4)));
  });
});
