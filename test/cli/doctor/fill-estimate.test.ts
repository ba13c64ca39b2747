import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readCrdConfigs } from "../../../src/cli/doctor/crd-config";
import { duration, fillFindings, fillingCaches } from "../../../src/cli/doctor/fill-estimate";
import type { FillMeasurement } from "../../../src/cli/doctor/fill-measurement";

/** The examples' CRD (v1alpha1, v1beta1 and v1 served, v1 stored), its versions and status changed as given. */
function crd(versions: [string, { served: boolean; storage: boolean }][], storedVersions?: string[]) {
  const document = parse(
    readFileSync(new URL("../../../examples/crds/crontabs.example.com.yaml", import.meta.url), "utf8"),
  );
  const schema = document.spec.versions[0].schema;
  document.spec.versions = versions.map(([name, flags]) => ({ name, ...flags, schema }));
  if (storedVersions) document.status = { storedVersions };
  return readCrdConfigs([document], "crd.yaml")[0]!;
}

const examples = crd([
  ["v1alpha1", { served: true, storage: false }],
  ["v1beta1", { served: true, storage: false }],
  ["v1", { served: true, storage: true }],
]);

/** 100 ms for the first call, 20 ms each one at a time, 150 ms for the first ten at once, then 2 ms an object. */
const measured: FillMeasurement & { ok: true } = {
  ok: true,
  firstMs: 100,
  serial: { calls: 20, elapsedMs: 400 },
  openingRound: { calls: 10, elapsedMs: 150 },
  concurrent: { calls: 50, elapsedMs: 100 },
  cut: false,
};
const timed = { countedFrom: "--stored", from: "v1", to: "v1alpha1" };
const byCode = (found: ReturnType<typeof fillFindings>, code: string) => found.find((f) => f.code === code);

describe("which watch caches call the webhook as they fill", () => {
  it("each served version other than the storage version", () => {
    expect(fillingCaches(examples)).toEqual({ storage: "v1", caches: ["v1alpha1", "v1beta1"] });
  });

  it("a version that is not served has no cache", () => {
    const crdWith = crd([
      ["v1alpha1", { served: false, storage: false }],
      ["v1", { served: true, storage: true }],
    ]);
    expect(fillingCaches(crdWith).caches).toEqual([]);
  });

  it("the storage version's own, when objects are still stored in an older version", () => {
    const crdWith = crd(
      [
        ["v1alpha1", { served: false, storage: false }],
        ["v1", { served: true, storage: true }],
      ],
      ["v1alpha1", "v1"],
    );
    expect(fillingCaches(crdWith).caches).toEqual(["v1"]);
  });
});

describe("a watch cache's fill, from the calls measured (figures given, not measured)", () => {
  it("the first call on a new connection, then each object at the rate measured: one at a time and 10 at once", () => {
    const found = fillFindings(examples, { objects: 1000, ...timed }, measured);
    expect(found.map((f) => `${f.severity} ${f.code}`)).toEqual(["info fill-estimate", "info fill-measured"]);
    // 100 + 999 × 20; 150 + 990 × 2.
    expect(byCode(found, "fill-estimate")!.figures).toEqual({
      objects: 1000,
      caches: 2,
      oneAtATimeMs: 20_080,
      tenAtOnceMs: 2_130,
    });
    expect(byCode(found, "fill-estimate")!.message).toBe(
      "one watch cache of 1,000 CronTab.example.com objects (--stored) fills in about 2.1 s at 10 calls at once (Kubernetes 1.37 on) and 20.1 s one at a time (before 1.37); the apiserver makes one call per object when it starts or re-lists, for each served version other than the storage version v1 (v1alpha1, v1beta1: 2 caches, filled side by side)",
    );
    expect(byCode(found, "fill-measured")!.message).toBe(
      "timed single-object reviews v1 → v1alpha1: first 100 ms (new connection), then 20 ms each over 20 one at a time; 10 at once: the first 10 in 150 ms (new connections), then 2.0 ms per object over 50",
    );
  });

  it("no more objects than calls at once: never slower than one at a time", () => {
    const figures = (objects: number) =>
      byCode(fillFindings(examples, { objects, ...timed }, measured), "fill-estimate")!.figures;
    // 100 + 20 one at a time, against 150 for the first ten at once.
    expect(figures(2)).toMatchObject({ oneAtATimeMs: 120, tenAtOnceMs: 120 });
    expect(figures(10)).toMatchObject({ oneAtATimeMs: 280, tenAtOnceMs: 150 });
    expect(figures(11)).toMatchObject({ tenAtOnceMs: 152 });
  });

  it("warns past a minute, naming each way of filling that takes that long, with what to do", () => {
    const found = fillFindings(examples, { objects: 5000, ...timed }, measured);
    const slow = byCode(found, "fill-slow")!;
    expect(slow.severity).toBe("warning");
    expect(slow.message).toBe(
      "a watch cache of 5,000 CronTab.example.com objects takes 1 min 40 s one at a time to fill, past a minute: until it has filled, that version's cache is not ready (kubernetes #136950), on every apiserver start and re-list",
    );
    expect(slow.fix).toBe(
      "deploy the webhook in a platform region near the cluster (the round trip is most of each call); on Lambda, provisioned concurrency of 20 or more, so that the calls at once do not wait on cold starts; serve fewer versions (each served version other than the storage version is one more cache to fill)",
    );
    expect(byCode(fillFindings(examples, { objects: 100_000, ...timed }, measured), "fill-slow")!.message).toMatch(
      /takes 3 min 20 s at 10 at once and 33 min 20 s one at a time to fill/,
    );
    expect(byCode(fillFindings(examples, { objects: 2900, ...timed }, measured), "fill-slow")).toBeUndefined();
  });

  it("a webhook that takes calls in turn fills no faster at 10 at once, and is told so", () => {
    const inTurn = { ...measured, concurrent: { calls: 50, elapsedMs: 1000 } };
    const estimate = byCode(fillFindings(examples, { objects: 1000, ...timed }, inTurn), "fill-estimate")!;
    expect(estimate.figures!.tenAtOnceMs).toBe(150 + 990 * 20);
    expect(estimate.message).toMatch(
      /; 10 at once was only 1\.0 times as fast as one at a time: the webhook takes calls in turn, so the 2 caches filling side by side share it and each takes up to 2 times as long$/,
    );
  });

  it("out of time after the first ten at once: those ten give the rate; before them: not estimated at 10", () => {
    const cut = { ...measured, concurrent: { calls: 0, elapsedMs: 0 }, cut: true };
    expect(
      byCode(fillFindings(examples, { objects: 1000, ...timed }, cut), "fill-estimate")!.figures!.tenAtOnceMs,
    ).toBe(150 + 990 * 15);
    const none = { ...cut, openingRound: { calls: 0, elapsedMs: 0 } };
    const found = fillFindings(examples, { objects: 1000, ...timed }, none);
    expect(byCode(found, "fill-estimate")!.figures).not.toHaveProperty("tenAtOnceMs");
    expect(byCode(found, "fill-estimate")!.message).toMatch(/10 at once was not timed \(the time budget ran out\)/);
    expect(byCode(found, "fill-measured")!.message).toMatch(/then not timed; cut short by the probe's time budget$/);
  });

  it("a call that failed: no estimate, and why", () => {
    expect(fillFindings(examples, { objects: 10, ...timed }, { ok: false, error: "boom" })).toEqual([
      {
        severity: "info",
        code: "fill-not-estimated",
        message: "the watch cache fill was not timed: a call failed: boom",
      },
    ]);
  });
});

describe("durations as the report prints them", () => {
  it("ms, s, min and s, h and min", () => {
    expect([4.5, 450, 3240, 60_000, 100_000, 7_500_000].map(duration)).toEqual([
      "4.5 ms",
      "450 ms",
      "3.2 s",
      "1 min",
      "1 min 40 s",
      "2 h 5 min",
    ]);
  });
});
