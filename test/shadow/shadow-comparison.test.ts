import { describe, expect, it } from "vitest";
import { compareReplies, type ComparisonPace, readSent } from "../../src/shadow/shadow-comparison";

// The comparison behind shadow logs, on replies far larger than any it is given to compare in
// full: it looks for the paths its lines name and no more, and its work is counted in slices.

const TWO_MILLION = 2_000_000;
const REPORTED = { objects: 5, paths: 10 };

const object = (index: number, fields: Record<string, unknown>) => ({
  apiVersion: "example.com/v1",
  kind: "CronTab",
  metadata: { name: `c${index}`, namespace: "default", uid: `uid-${index}` },
  ...fields,
});

function review(objects: number) {
  return readSent(
    JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: {
        uid: "r",
        desiredAPIVersion: "example.com/v1",
        objects: Array.from({ length: objects }, (_, i) => ({ ...object(i, {}), apiVersion: "example.com/v1beta1" })),
      },
    }),
  );
}

function reply(objects: Array<Record<string, unknown>>): string {
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    response: { uid: "r", result: { status: "Success" }, convertedObjects: objects },
  });
}

/** A pace that records its turns and can be told when its time is up. */
function pace(options: Partial<ComparisonPace> = {}) {
  const turns = { count: 0 };
  return {
    turns,
    pace: {
      sliceSteps: 1_000,
      maxSteps: 1_000_000,
      expired: () => false,
      nextTurn: async () => void turns.count++,
      ...options,
    },
  };
}

describe("compareReplies", () => {
  it("names the first paths of a 2,000,000-item list the live reply lacks, and compares no further", async () => {
    const sent = review(1);
    const live = reply([object(0, { items: [] })]);
    const candidate = reply([object(0, { items: new Array<number>(TWO_MILLION).fill(7) })]);
    // A budget of a hundred pairs is enough: the walk stops at the eleventh path.
    const { pace: small } = pace({ maxSteps: 100 });
    expect(await compareReplies(sent, live, candidate, REPORTED, small)).toEqual({
      outcome: "different",
      differing: 1,
      objects: [
        {
          index: 0,
          uid: "uid-0",
          paths: Array.from({ length: 10 }, (_, i) => `items[${i}]`),
          morePaths: true,
        },
      ],
    });
  });

  it("stops comparing two equal 2,000,000-item lists at its work bound, a turn of the loop per slice", async () => {
    const sent = review(1);
    const items = reply([object(0, { items: new Array<number>(TWO_MILLION).fill(7) })]);
    const { pace: bounded, turns } = pace({ sliceSteps: 10_000, maxSteps: 50_000 });
    expect(await compareReplies(sent, items, items, REPORTED, bounded)).toEqual({
      outcome: "same",
      unfinished: { compared: 0 },
    });
    // One turn between the two replies' reads, then one between each two slices of 10,000.
    expect(turns.count).toBe(1 + 4);
  });

  it("stops at the shadow's deadline, keeping what it found, between slices", async () => {
    const sent = review(3);
    const big = new Array<number>(TWO_MILLION).fill(7);
    const live = reply([object(0, { port: "1" }), object(1, { items: big }), object(2, {})]);
    const candidate = reply([object(0, { port: "2" }), object(1, { items: big }), object(2, { port: "3" })]);
    let checks = 0;
    const { pace: timed, turns } = pace({ sliceSteps: 10_000, expired: () => ++checks > 3 });
    expect(await compareReplies(sent, live, candidate, REPORTED, timed)).toEqual({
      outcome: "different",
      differing: 1,
      objects: [{ index: 0, uid: "uid-0", paths: ["port"], morePaths: false }],
      unfinished: { compared: 1 },
    });
    expect(turns.count).toBe(1 + 3);
  });

  it("names paths for the first objects it reports and only counts the others, one path each", async () => {
    const sent = review(8);
    const many = (value: number) =>
      Array.from({ length: 8 }, (_, i) =>
        object(i, Object.fromEntries(Array.from({ length: 30 }, (_, f) => [`f${f}`, value]))),
      );
    const verdict = await compareReplies(sent, reply(many(1)), reply(many(2)), REPORTED, pace().pace);
    expect(verdict).toMatchObject({ outcome: "different", differing: 8 });
    expect(
      verdict.outcome === "different" && verdict.objects.map((o) => [o.index, o.paths.length, o.morePaths]),
    ).toEqual([0, 1, 2, 3, 4].map((i) => [i, 10, true]));
  });
});
