import { describe, expect, it } from "vitest";
import * as z from "zod";
import { convertBody, createRegistry, defineKind } from "../../src/conversion";
import { readConfig } from "../../src/server/config";
import { FAILURE_CAUSES, FAILURE_CODES, type FailureCode } from "../../src/outcome";

/**
 * Every code the engine raises, each from the place that raises it, under its cause: the code is
 * what the test kit and the CLI act on, so each must come out where it belongs, whatever the
 * message says.
 */

const GROUP = "codes.example.com";
const spec = z.looseObject({ spec: z.looseObject({ size: z.number().optional() }).optional() });
type Convert = (object: Record<string, unknown>) => unknown;

function registry(convert: Convert = (object) => object) {
  return createRegistry([
    defineKind({
      group: GROUP,
      kind: "Gauge",
      versions: { v1: spec, v2: spec },
      converters: { v1: { v2: convert as never }, v2: { v1: (object) => object } },
    }),
  ]);
}

const gauge = (fields: Record<string, unknown> = {}) => ({
  apiVersion: `${GROUP}/v1`,
  kind: "Gauge",
  metadata: { name: "g", namespace: "ns", uid: "u1", labels: { a: "b" } },
  ...fields,
});

const reviewText = (objects: unknown[], desired = `${GROUP}/v2`) =>
  JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: { uid: "r1", desiredAPIVersion: desired, objects },
  });

interface Case {
  objects?: unknown[];
  text?: string;
  desired?: string;
  convert?: Convert;
  limits?: Partial<ReturnType<typeof readConfig>>;
  pastDeadline?: boolean;
  /** A clock that passes the deadline once the review has begun. */
  clockRunsOut?: boolean;
}

// A converter whose error says what a different failure would say: the words must not matter.
const mimic = "the converter's result does not match the v2 schema: spec.size: expected number, received string";

const CASES: Record<Exclude<FailureCode, "internal-error">, Case> = {
  "converter-threw": {
    objects: [gauge()],
    convert: () => {
      throw new Error(mimic);
    },
  },
  "result-not-object": { objects: [gauge()], convert: () => null },
  "result-unreadable": { objects: [gauge()], convert: (object) => ({ ...object, spec: { size: Number.NaN } }) },
  // A list's length is judged before its items are read: this one is never walked.
  "result-too-large": { objects: [gauge()], convert: (object) => ({ ...object, spec: { list: new Array(2e8) } }) },
  "result-too-slow": {
    objects: [gauge()],
    convert: (object) => ({ ...object, spec: { size: 1, note: "x".repeat(16 * 1024) } }),
    clockRunsOut: true,
  },
  "result-schema-mismatch": { objects: [gauge()], convert: (object) => ({ ...object, spec: { size: "3" } }) },
  "result-unprintable": {
    objects: [gauge({ metadata: { name: "g", managedFields: [{ manager: "m" }] } })],
    // managedFields is shared with the reply, not copied: a cycle there is found only when printing.
    convert: (object) => {
      const fields = (object.metadata as { managedFields: Array<Record<string, unknown>> }).managedFields;
      fields[0]!.self = fields;
      return object;
    },
  },
  "schema-mismatch": { objects: [gauge({ spec: { size: "big" } })] },
  "group-changed": { objects: [gauge({ apiVersion: "other.example.com/v1" })] },
  "kind-not-served": { objects: [gauge({ kind: "Dial" })] },
  "desired-version-malformed": { objects: [gauge()], desired: "v2" },
  "version-not-served": { objects: [gauge()], desired: `${GROUP}/v9` },
  "not-an-object": { objects: [[1, 2]] },
  "api-version-invalid": { objects: [gauge({ apiVersion: 7 })] },
  "kind-missing": { objects: [gauge({ kind: "" })] },
  "metadata-invalid": { objects: [gauge({ metadata: { name: 3 } })] },
  "nested-too-deeply": {
    // Deep enough to run zod's recursion out of stack, under the body's depth limit.
    text: reviewText([gauge({ spec: { size: 1, deep: "DEEP" } })]).replace('"DEEP"', nested(9_000)),
    limits: { maxDepth: 20_000 },
  },
  "number-out-of-range": { text: reviewText([gauge()]).replace('"uid":"u1"', '"uid":"u1","n":1e400') },
  "labels-invalid": {
    objects: [gauge()],
    convert: (object) => ({ ...object, metadata: { labels: { "bad key!": "x" } } }),
  },
  "annotations-invalid": {
    objects: [gauge()],
    convert: (object) => ({ ...object, metadata: { annotations: { a: 1 } } }),
  },
  "budget-exceeded": { objects: [gauge()], pastDeadline: true },
  "too-many-objects": { objects: [gauge(), gauge()], limits: { maxObjects: 1 } },
  "object-too-large": {
    objects: [gauge({ spec: { size: 1, note: "x".repeat(4096) } })],
    limits: { maxObjectBytes: 1024 },
  },
  "reply-too-large": {
    objects: [gauge({ spec: { size: 1, note: "x".repeat(4096) } })],
    limits: { replyLimitBytes: 1024 },
  },
  // Two objects of 1,000 `{}` each: within the size limit, but scanned (the body is over a third
  // of it) and estimated to hold far more than 100 kB.
  "review-too-large": {
    objects: [gauge({ spec: { items: Array(1000).fill({}) } }), gauge({ spec: { items: Array(1000).fill({}) } })],
    limits: { maxObjectBytes: 8192, maxBytesInFlight: 100_000 },
  },
};

/** `{"d":{"d":…{}…}}`, as text: JSON.stringify would run out of stack first. */
function nested(depth: number): string {
  return `${'{"d":'.repeat(depth)}{}${"}".repeat(depth)}`;
}

/** A deep spec checked by a schema that recurses as deep as the object: zod runs out of stack. */
function deepRegistry() {
  type Node = { d?: Node };
  const node: z.ZodType<Node> = z.looseObject({ d: z.lazy(() => node).optional() });
  const deep = z.looseObject({ spec: z.looseObject({ deep: node.optional() }).optional() });
  return createRegistry([
    defineKind({
      group: GROUP,
      kind: "Gauge",
      versions: { v1: deep, v2: deep },
      converters: { v1: { v2: (object) => object }, v2: { v1: (object) => object } },
    }),
  ]);
}

async function failureOf(code: FailureCode, one: Case) {
  const limits = { ...readConfig({}), ...one.limits };
  const text = one.text ?? reviewText(one.objects ?? [], one.desired);
  let reads = 0;
  const budget = one.pastDeadline
    ? { deadline: 0, budgetMs: 1, now: () => 1 }
    : one.clockRunsOut
      ? { deadline: 10, budgetMs: 10, now: () => (reads++ === 0 ? 0 : 20) }
      : undefined;
  const registered = code === "nested-too-deeply" ? deepRegistry() : registry(one.convert);
  const outcome = await convertBody(registered, text, { limits, budget });
  if (!outcome.ok) throw new Error(`rejected as ${outcome.reason}: ${outcome.message}`);
  return outcome.failure;
}

describe("every failure carries the code of what failed, under its cause", () => {
  it.each(Object.entries(CASES) as Array<[FailureCode, Case]>)("%s", async (code, one) => {
    const failure = await failureOf(code, one);
    expect(failure).toMatchObject({ code, cause: FAILURE_CODES[code] });
  });

  it("a converter's error that reads like another failure is still the converter's throw", async () => {
    const thrown = await failureOf("converter-threw", CASES["converter-threw"]);
    const mismatched = await failureOf("result-schema-mismatch", CASES["result-schema-mismatch"]);
    // The same words after the object's name, two codes: only the code tells them apart.
    expect(thrown!.message.endsWith(mimic)).toBe(true);
    expect(mismatched!.message.endsWith(mimic)).toBe(true);
    expect([thrown!.code, mismatched!.code]).toEqual(["converter-threw", "result-schema-mismatch"]);
  });

  it("names each code once, each under a cause, and leaves no cause without one", () => {
    expect(new Set(Object.values(FAILURE_CODES))).toEqual(new Set(FAILURE_CAUSES));
  });
});
