import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { registry } from "../../examples";
import { readConfig } from "../../src/server/config";
import { convertBody } from "../../src/conversion/convert-review";
import type { LogRecord } from "../../src/log";
import type { MeasuredShadow } from "../../src/metrics";
import { noMetrics } from "../../src/metrics/metrics";
import type { Registry } from "../../src/conversion";
import { COMPARISON_SLICE_STEPS, createShadow, MAX_SHADOW_CHARS, type ShadowOptions } from "../../src/shadow/shadow";
import { hostile } from "../fixtures/hostile-registries";
import { DEEP_TREES, deepReview } from "../deep-reviews";
import { registry as dropsPort } from "../fixtures/port-dropping-registry";

const config = readConfig({});
const docsV1 = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");

async function liveReply(live: Registry, body: string): Promise<string> {
  const outcome = await convertBody(live, body, { limits: config });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.text;
}

function shadowOf(candidate: Registry, options: Partial<ShadowOptions> = {}) {
  const logs: LogRecord[] = [];
  const shadows: MeasuredShadow[] = [];
  const shadow = createShadow({
    candidate,
    sample: 1,
    limits: config,
    log: (record) => logs.push(record),
    metrics: { ...noMetrics, shadow: (outcome) => shadows.push(outcome) },
    // The shadow's clock stands still unless a test moves it: real time on a loaded machine
    // would close the start window (START_WITHIN_MS) and open idle windows at random.
    now: () => 0,
    ...options,
  });
  return { shadow, logs, shadows };
}

describe("createShadow", () => {
  it("takes the share of reviews its random draw falls under", async () => {
    const draws = [0.7, 0.2, 0.5];
    const { shadow, shadows } = shadowOf(dropsPort, { sample: 0.5, random: () => draws.shift()! });
    const live = await liveReply(registry, docsV1);
    expect(shadow(docsV1, live)).toBeUndefined();
    await shadow(docsV1, live);
    expect(shadow(docsV1, live)).toBeUndefined();
    expect(shadows).toHaveLength(1);
  });

  it("abandons a candidate that never settles at its deadline, and samples nothing while it runs", async () => {
    const { shadow, shadows, logs } = shadowOf(hostile.neverSettles(), { budgetMs: 50 });
    const live = await liveReply(registry, docsV1);
    const running = shadow(docsV1, live);
    expect(running).toBeInstanceOf(Promise);
    expect(shadow(docsV1, live)).toBeUndefined();
    await running;
    expect(shadows).toEqual([expect.objectContaining({ failed: true })]);
    expect(logs).toEqual([expect.objectContaining({ msg: "shadow candidate failed", reason: "timed-out" })]);
  });

  it("starts nothing for a while after a slow candidate: shadow work keeps to its share of the time", async () => {
    let clock = 0;
    // 20 ms an object by the shadow's clock, 40 for the review's two.
    const slow = hostile.answers((converted) => ((clock += 20), converted));
    const { shadow, shadows } = shadowOf(slow, { now: () => clock });
    const live = await liveReply(registry, docsV1);
    await shadow(docsV1, live);
    expect(shadows).toHaveLength(1);
    // It took 40 ms: the next one waits nine times that, and no longer.
    clock += 9 * 40 - 1;
    expect(shadow(docsV1, live)).toBeUndefined();
    clock += 1;
    await shadow(docsV1, live);
    expect(shadows).toHaveLength(2);
  });

  it("starts the candidate only after the caller's turn, so the reply is written first", async () => {
    const order: string[] = [];
    const recording = hostile.answers((converted) => (order.push("candidate"), converted));
    const { shadow } = shadowOf(recording);
    const live = await liveReply(registry, docsV1);
    const running = shadow(docsV1, live);
    order.push("reply written");
    await running;
    expect(order).toEqual(["reply written", "candidate", "candidate"]);
  });

  it("drops a shadow that could not start soon after its review (a busy loop, a frozen instance)", async () => {
    let clock = 0;
    const delays = [101];
    const { shadow, shadows } = shadowOf(dropsPort, {
      now: () => clock,
      later: (work) => {
        clock += delays.shift() ?? 0;
        work();
      },
    });
    const live = await liveReply(registry, docsV1);
    await shadow(docsV1, live);
    expect(shadows).toEqual([]);
    // Not held as running: the next review is sampled, and compared once it starts in time.
    await shadow(docsV1, live);
    expect(shadows).toEqual([expect.objectContaining({ differences: 2 })]);
  });

  it("leaves a request text over MAX_SHADOW_CHARS alone", async () => {
    const { shadow, shadows } = shadowOf(dropsPort);
    const padded = docsV1.replace("{", `{${" ".repeat(MAX_SHADOW_CHARS)}`);
    expect(shadow(padded, "")).toBeUndefined();
    await shadow(docsV1, await liveReply(registry, docsV1));
    expect(shadows).toEqual([expect.objectContaining({ differences: 2 })]);
  });

  it("gives the candidate its own objects: a live converter that scribbles on its input changes nothing it sees", async () => {
    const scribbler = hostile.scribbles();
    const live = await liveReply(scribbler, docsV1);
    const { shadow, logs } = shadowOf(registry);
    await shadow(docsV1, live);
    // Had the candidate read the scribbled objects, the hosts would agree.
    expect(logs.map((record) => record.paths)).toEqual([
      ["host", "port"],
      ["host", "port"],
    ]);
  });

  it("caps the paths of one line and the lines of one review", async () => {
    const many = Array.from({ length: 8 }, (_, i) => ({
      apiVersion: "example.com/v1beta1",
      kind: "CronTab",
      metadata: { name: `c${i}`, namespace: "default", uid: `uid-${i}` },
      hostPort: "db:1",
      ...Object.fromEntries(Array.from({ length: 30 }, (_, f) => [`extra${f}`, f])),
    }));
    const body = JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { uid: "r", desiredAPIVersion: "example.com/v1", objects: many },
    });
    const changesAll = hostile.answers((converted) =>
      Object.fromEntries(Object.entries(converted).map(([key, value]) => [key, key.startsWith("extra") ? "x" : value])),
    );
    const { shadow, logs, shadows } = shadowOf(changesAll);
    await shadow(body, await liveReply(registry, body));
    expect(shadows).toEqual([expect.objectContaining({ differences: 8 })]);
    expect(logs).toHaveLength(5);
    for (const line of logs) {
      expect(line.paths).toHaveLength(10);
      expect(line.morePaths).toBe(true);
      expect(line.differing).toBe(8);
    }
  });

  it.each(DEEP_TREES)("compares %s as deep as the apiserver stores objects", async (_, tree) => {
    const body = deepReview(tree);
    const { shadow, logs } = shadowOf(dropsPort);
    await shadow(body, await liveReply(registry, body));
    expect(logs).toEqual([expect.objectContaining({ msg: "shadow difference", paths: ["port"] })]);
  });

  it("reads a candidate that answers a one-object review with 2,000,000 items no further than its bound", async () => {
    const body = oneObject({ items: [] });
    const { shadow, logs, shadows } = shadowOf(hostile.floods(2_000_000));
    await shadow(body, await liveReply(registry, body));
    // Failed by the engine's bound on what it reads, before the shadow parses or walks it.
    expect(shadows).toEqual([expect.objectContaining({ failed: true, differences: 0 })]);
    expect(logs).toEqual([expect.objectContaining({ msg: "shadow candidate failed", reason: "failed" })]);
    expect(logs[0]!.cause).toBeDefined();
  });

  it("compares a candidate's answer up to twice the size of the review, and reads no more of a larger one", async () => {
    const body = oneObject({ items: [] });
    const live = await liveReply(registry, body);
    // 10,000 items are about 20 KB, within the 128 KiB floor: compared, by their first paths.
    const within = shadowOf(hostile.floods(10_000));
    await within.shadow(body, live);
    expect(within.logs).toEqual([
      expect.objectContaining({
        msg: "shadow difference",
        paths: Array.from({ length: 10 }, (_, i) => `items[${i}]`),
        morePaths: true,
      }),
    ]);
    // 100,000 are about 200 KB: past it, failed before its reply is parsed.
    const past = shadowOf(hostile.floods(100_000));
    await past.shadow(body, live);
    expect(past.logs).toEqual([expect.objectContaining({ msg: "shadow candidate failed", reason: "failed" })]);
  });

  it("hands the event loop back between slices of a comparison of two equal large lists", async () => {
    const items = new Array<number>(400_000).fill(7);
    const body = oneObject({ items });
    expect(body.length).toBeLessThan(MAX_SHADOW_CHARS);
    const { shadow, shadows } = shadowOf(registry);
    const live = await liveReply(registry, body);
    // Work waiting on the loop, as a live request does: a turn each time the loop comes round.
    let finished = false;
    let turns = 0;
    const waiting = () => {
      turns++;
      if (!finished) setImmediate(waiting);
    };
    setImmediate(waiting);
    await shadow(body, live);
    finished = true;
    expect(shadows).toEqual([expect.objectContaining({ differences: 0, failed: false })]);
    // At least one turn for every slice of the comparison, not only before and after it.
    expect(COMPARISON_SLICE_STEPS).toBeLessThanOrEqual(10_000);
    expect(turns).toBeGreaterThanOrEqual(items.length / 10_000);
  });

  it("hands the event loop back before each object of a LIST the candidate converts", async () => {
    const review = JSON.parse(docsV1);
    const [first] = review.request.objects;
    review.request.objects = Array.from({ length: 20 }, (_, i) => ({ ...first, metadata: { name: `c${i}` } }));
    const body = JSON.stringify(review);
    const order: string[] = [];
    const { shadow, shadows } = shadowOf(hostile.answers((converted) => (order.push("object"), converted)));
    const live = await liveReply(registry, body);
    let finished = false;
    const waiting = () => {
      order.push("turn");
      if (!finished) setImmediate(waiting);
    };
    setImmediate(waiting);
    await shadow(body, live);
    finished = true;
    expect(shadows).toEqual([expect.objectContaining({ differences: 0, failed: false })]);
    expect(order.filter((entry) => entry === "object")).toHaveLength(20);
    // Never two objects converted in one turn of the loop.
    expect(order.join(" ")).not.toContain("object object");
  });
});

/** A review of the docs page's first object with `fields` added. */
function oneObject(fields: Record<string, unknown>): string {
  const review = JSON.parse(docsV1);
  review.request.objects = [{ ...review.request.objects[0], ...fields }];
  return JSON.stringify(review);
}
