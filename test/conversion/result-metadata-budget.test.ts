import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AnyConverter, GROUP, odd, oddRegistry, oddReview } from "./converter-results";
import { readConvertedMaps, readResult } from "../../src/conversion/converter-result";
import { ConversionFailure } from "../../src/conversion/conversion-failure";
import { convertBody } from "../../src/conversion/convert-review";
import { MapRead } from "../../src/conversion/metadata-guard";
import { ResultBudget } from "../../src/conversion/result-budget";
import type { TimeBudget } from "../../src/conversion/time-budget";
import { readConfig } from "../../src/server/config";
import { convertFails, convertOk, testApp } from "../helpers";
import { runs } from "../property-runs";

/**
 * The last converter's labels and annotations, which the metadata guard reads after the rest of
 * the result (converter-result.ts, `readConvertedMaps`), are counted under the same budget as the
 * rest: a map of millions of entries, a value of megabytes, or getters that take too long fail the
 * object as any result over the limit would, and the server answers the next review.
 */

const NAME = `object 0 (ns/a, uid uid-a) Odd ${GROUP}/v1 -> ${GROUP}/v2`;
const LIMIT = "CRDSHIFT_MAX_OBJECT_BYTES";

/** A converter that keeps the object but for its metadata's labels or annotations. */
const withMetadata =
  (metadata: Record<string, unknown>): AnyConverter =>
  (object) => ({ ...object, metadata: { ...(object.metadata as object), ...metadata } });

async function failure(converter: AnyConverter, env: Record<string, string> = {}, budget?: TimeBudget) {
  const sent = JSON.stringify(oddReview([odd("a")]));
  const outcome = await convertBody(oddRegistry(converter), sent, { limits: readConfig(env), budget });
  return outcome.ok ? outcome.failure : { cause: "not-ok", code: outcome.reason, message: outcome.message };
}

/** The server, after a review that failed, still converts the next one. */
async function answersNext(converter: AnyConverter, env: Record<string, string> = {}): Promise<string> {
  let hostile = true;
  const { app } = testApp({
    env,
    registry: oddRegistry((object) => (hostile ? converter(object) : { ...object, spec: { size: 2 } })),
  });
  const message = await convertFails(app, oddReview([odd("a")]));
  hostile = false;
  const { objects } = await convertOk(app, oddReview([odd("a")]));
  expect(objects).toMatchObject([{ spec: { size: 2 }, metadata: { name: "a", labels: { owner: "a" } } }]);
  return message;
}

function manyEntries(count: number): Record<string, string> {
  const map: Record<string, string> = {};
  for (let i = 0; i < count; i++) map[`k${i}`] = "v";
  return map;
}

describe("labels and annotations over CRDSHIFT_MAX_OBJECT_BYTES: result-too-large, naming the object", () => {
  it("labels of more entries than the limit holds fail on their count, before any value is read", async () => {
    const labels = manyEntries(600_000);
    const converter = withMetadata({ labels });
    expect(await failure(converter)).toEqual({
      cause: "converter-error",
      code: "result-too-large",
      message: `${NAME}: the converter's result holds a map of 600000 entries at metadata.labels, more than fit in 3145728 bytes of JSON, this webhook's limit per object (${LIMIT})`,
    });
    const env = { [LIMIT]: String(64 * 1024) };
    expect(await answersNext(withMetadata({ labels: manyEntries(20_000) }), env)).toContain(
      `${NAME}: the converter's result holds a map of 20000 entries at metadata.labels`,
    );
  });

  it("an annotation value over the limit fails naming the annotation", async () => {
    const converter = withMetadata({ annotations: { big: "x".repeat(4 * 1024 * 1024) } });
    expect(await failure(converter)).toEqual({
      cause: "converter-error",
      code: "result-too-large",
      message: `${NAME}: the converter's result passes 3145728 bytes of JSON at metadata.annotations.big, this webhook's limit per object (${LIMIT}), an object counted at every place it appears`,
    });
    expect(await answersNext(converter)).toContain("at metadata.annotations.big");
  });

  it("counted with the rest of the result, under the limit as configured", async () => {
    const env = { [LIMIT]: String(64 * 1024) };
    // Each half fits; together they do not.
    const converter: AnyConverter = (object) => ({
      ...object,
      spec: { note: "x".repeat(40 * 1024) },
      metadata: { ...(object.metadata as object), annotations: { note: "y".repeat(40 * 1024) } },
    });
    expect(await failure(converter, env)).toMatchObject({
      cause: "converter-error",
      code: "result-too-large",
      message: expect.stringContaining(
        `${NAME}: the converter's result passes 65536 bytes of JSON at metadata.annotations.note`,
      ),
    });
    expect(await answersNext(converter, env)).toContain("passes 65536 bytes");
  });
});

describe("metadata a proxy or getters", () => {
  it("a labels getter that throws fails as the converter's, naming the field", async () => {
    const metadata = new Proxy(
      { name: "a", namespace: "ns", uid: "uid-a" },
      {
        get(target, key) {
          if (key === "labels") throw new Error("no labels here");
          return Reflect.get(target, key);
        },
      },
    );
    const converter: AnyConverter = (object) => ({ ...object, metadata });
    expect(await failure(converter)).toMatchObject({
      cause: "converter-error",
      code: "result-unreadable",
      message: expect.stringContaining(`${NAME}: the converter's result could not be read at metadata.labels`),
    });
    expect(await answersNext(converter)).toContain("at metadata.labels");
  });

  it("labels whose getters outlast the review's time fail as result-too-slow", async () => {
    let calls = 0;
    const keys = Array.from({ length: 10_000 }, (_, i) => `k${i}`);
    const labels = new Proxy(
      {},
      {
        ownKeys: () => keys,
        getOwnPropertyDescriptor: () => ({ value: "v", enumerable: true, configurable: true, writable: true }),
        get: () => (calls++, "v"),
      },
    );
    const converter = withMetadata({ labels });
    // The clock moves only when the labels' getters run.
    const time: TimeBudget = { deadline: 100, budgetMs: 100, now: () => calls };
    expect(await failure(converter, {}, time)).toMatchObject({
      cause: "converter-error",
      code: "result-too-slow",
      message: expect.stringContaining(`${NAME}: the converter's result was still being read at metadata.labels.`),
    });
    // Through the server, the review's own clock: a getter that throws stands in for the slow one.
    const throwing = new Proxy(
      { a: "v" },
      {
        get: () => {
          throw new Error("slow, then gone");
        },
      },
    );
    expect(await answersNext(withMetadata({ labels: throwing }))).toContain("at metadata.labels");
  });
});

describe("ordinary metadata", () => {
  it("is read as before: the maps' names and values, within a limit of exactly the result's JSON (fast-check)", () => {
    const map = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9.-]{0,30}$/), fc.string({ unit: "binary" }), {
      maxKeys: 20,
    });
    fc.assert(
      fc.property(map, map, (labels, annotations) => {
        const result = { apiVersion: `${GROUP}/v2`, kind: "Odd", metadata: { name: "a", labels, annotations } };
        const maxBytes = Buffer.byteLength(JSON.stringify(result));
        const budget = new ResultBudget(maxBytes);
        const limits = { maxDepth: 10_000, maxBytes };
        const copy = readResult(result, { last: true, held: undefined, step: "", limits, budget });
        const maps = readConvertedMaps(copy, "", budget);
        expect(maps.labels).toEqual(new MapRead(Object.keys(labels), Object.values(labels)));
        expect(maps.annotations).toEqual(new MapRead(Object.keys(annotations), Object.values(annotations)));
      }),
      { numRuns: runs(200) },
    );
  });

  it("a converter's labels and annotations reach the reply unchanged", async () => {
    const labels = { owner: "a", tier: "gold" };
    const annotations = { note: "x".repeat(64 * 1024), "example.com/hint": "ok" };
    const { app } = testApp({ registry: oddRegistry(withMetadata({ labels, annotations })) });
    const { objects } = await convertOk(app, oddReview([odd("a")]));
    expect(objects).toMatchObject([{ metadata: { name: "a", labels, annotations } }]);
  });

  it("a budget spent by the rest of a result fails the maps, not before", () => {
    const budget = new ResultBudget(50);
    expect(() => readConvertedMaps({ metadata: { labels: manyEntries(20) } }, "", budget)).toThrow(ConversionFailure);
  });
});
