// The way a converter author imports it: the package's own export.
import { assertRoundTrips, checkKinds } from "crdshift/testing";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { registry } from "../../examples";
import { type Converter, defineKind } from "../../src/conversion";
import { runs } from "../property-runs";
import { twoVersionCrd } from "./two-version-crd";

describe("the round-trip check", () => {
  it("passes on the examples, trying every ordered pair of versions", async () => {
    const reports = await checkKinds(registry.kinds, { runs: runs(100), seed: 1 });
    expect(reports.map((r) => [r.kind, r.ok])).toEqual([
      ["CronTab.example.com", true],
      ["CronTab.stable.example.com", true],
    ]);
    expect(reports[0]!.pairs.map((p) => `${p.from}->${p.to}`)).toEqual([
      "v1->v1beta1",
      "v1->v1alpha1",
      "v1beta1->v1",
      "v1beta1->v1alpha1",
      "v1alpha1->v1",
      "v1alpha1->v1beta1",
    ]);
    // Generated objects really went both ways, not only into refusals.
    for (const pair of reports.flatMap((r) => r.pairs)) expect(pair.roundTrips).toBeGreaterThan(10);
  });

  it("fails on a converter that drops a field, naming the pair, the field and a small object", async () => {
    const lossy = defineKind({
      group: "lossy.example.com",
      kind: "Widget",
      versions: {
        v1: z.looseObject({ size: z.optional(z.number()), colour: z.optional(z.string()) }),
        v2: z.looseObject({ size: z.optional(z.number()) }),
      },
      converters: {
        v1: { v2: ({ colour, ...rest }) => rest }, // forgets colour: not lossless
        v2: { v1: (object) => object },
      },
    });
    await expect(assertRoundTrips(lossy, { seed: 7 })).rejects.toThrow(
      /^Widget\.lossy\.example\.com v1 -> v2 -> v1: not the same after the round trip: colour was "[^"]*", came back missing\n {2}object: \{/,
    );
  });

  it("counts a converter's refusal as a clean Failure, but not an object it cannot take back", async () => {
    const oneWay = defineKind({
      group: "oneway.example.com",
      kind: "Gadget",
      versions: { v1: z.looseObject({ n: z.optional(z.number()) }), v2: z.looseObject({ n: z.optional(z.number()) }) },
      refusals: { "v2->v1": { "read-only": "v1 is read-only" } },
      converters: {
        v1: { v2: (object) => object },
        v2: {
          v1: (object, { refuse }) => {
            if (object.n !== undefined) throw refuse("read-only", "v1 is read-only");
            return object;
          },
        },
      },
    });
    const [report] = await checkKinds([oneWay], { seed: 3, runs: 20 });
    expect(report!.ok).toBe(false);
    expect(report!.failure).toMatch(
      /^Gadget\.oneway\.example\.com v1 -> v2 -> v1: v2 was accepted, but converting it back failed: .*v1 is read-only/,
    );
  });

  it("counts refusals by declared reason for each pair, with the declaration's why and an example", async () => {
    const wanted = runs(100);
    const [report] = await checkKinds([registry.kinds[0]!], { runs: wanted, seed: 1 });
    const refusing = report!.pairs.find((pair) => pair.from === "v1" && pair.to === "v1beta1")!;
    expect(refusing.refused).toBeGreaterThan(0);
    expect(refusing.refusedBy.map((entry) => entry.reason).sort()).toEqual(["colon-in-port", "host-or-port-alone"]);
    expect(refusing.refusedBy.reduce((sum, entry) => sum + entry.count, 0)).toBe(refusing.refused);
    expect(refusing.refusedBy.find((entry) => entry.reason === "host-or-port-alone")).toMatchObject({
      why: "v1beta1's hostPort holds a host and a port only together",
      example: "host and port must both be set to form hostPort",
    });
    // Coverage: refusals aside, the runs asked for round-tripped, out of more objects generated.
    expect(refusing.roundTrips).toBe(wanted);
    expect(refusing.generated).toBeGreaterThanOrEqual(wanted + refusing.refused);
    // A chain refuses for its steps' reasons: v1 -> v1alpha1 goes through v1beta1.
    const chain = report!.pairs.find((pair) => pair.from === "v1" && pair.to === "v1alpha1")!;
    expect(chain.refusedBy.map((entry) => entry.reason).sort()).toEqual(["colon-in-port", "host-or-port-alone"]);
    expect(report!.pairs.find((pair) => pair.refused === 0)?.refusedBy).toEqual([]);
  });
});

/** A kind whose v2 -> v1 converter is the one given (v2 -> v1 -> v2 is the first pair tried). */
function withConverter(toV1: Converter<any, any>, refusals?: { "v2->v1": Record<string, string> }) {
  return defineKind({
    ...(refusals ? { refusals } : {}),
    group: "kit.example.com",
    kind: "Thing",
    versions: {
      v1: z.looseObject({
        size: z.optional(z.number()),
        spec: z.optional(z.looseObject({ total: z.optional(z.union([z.number(), z.bigint()])) })),
      }),
      v2: z.looseObject({
        width: z.optional(z.number()),
        spec: z.optional(z.looseObject({ total: z.optional(z.union([z.number(), z.bigint()])) })),
      }),
    },
    converters: {
      v1: { v2: ({ size, ...rest }: any) => (size === undefined ? rest : Object.assign(rest, { width: size })) },
      v2: { v1: toV1 },
    },
  });
}

declare const notDefinedAnywhere: (object: unknown) => unknown;

describe("a converter's bugs are defects, not refusals", () => {
  const bugs: Array<[string, Converter<any, any>, RegExp]> = [
    [
      "calls a function that does not exist (ReferenceError)",
      (object) => notDefinedAnywhere(object),
      /threw ReferenceError: notDefinedAnywhere is not defined: a bug in the converter/,
    ],
    [
      "reads a field of undefined (TypeError)",
      (object) => ({ ...object, size: object.spec.missing.deep }),
      /threw TypeError: Cannot read properties of undefined \(reading '(missing|deep)'\): a bug/,
    ],
    [
      "builds an impossible array (RangeError)",
      (object) => ({ ...object, list: new Array(-1) }),
      /threw RangeError: Invalid array length: a bug/,
    ],
    [
      "throws a string, not an Error",
      () => {
        throw "no";
      },
      /threw no \(a string, not an Error\): a bug in the converter, not a refusal/,
    ],
  ];
  for (const [what, converter, message] of bugs) {
    it(`fails the check when the converter ${what}`, async () => {
      const [report] = await checkKinds([withConverter(converter)], { runs: 50, seed: 5 });
      expect(report!.ok).toBe(false);
      expect(report!.failure).toMatch(/^Thing\.kit\.example\.com v2 -> v1 -> v2: converting to v1 threw /);
      expect(report!.failure).toMatch(message);
    });
  }

  it("names the stack's first frame: where the converter went wrong", async () => {
    const [report] = await checkKinds([withConverter((object) => notDefinedAnywhere(object))], { runs: 20, seed: 5 });
    expect(report!.failure).toMatch(
      /a bug in the converter, not a refusal \(to refuse an object, throw context\.refuse\(reason, message\) with a reason the pair declares\)\n {2}at .*round-trip\.test\.ts:\d+:\d+/,
    );
  });

  it("fails a pair where every object was refused, as declared: nothing was proved", async () => {
    const refuseAll = withConverter(
      (_object, { refuse }) => {
        throw refuse("retired", "v1 is not supported any more");
      },
      { "v2->v1": { retired: "v1 is retired" } },
    );
    const [report] = await checkKinds([refuseAll], { runs: 30, seed: 5 });
    expect(report!.ok).toBe(false);
    expect(report!.failure).toContain(
      'Thing.kit.example.com v2 -> v1 -> v2: only 0 of 30 objects made the round trip: of 300 generated, 300 were refused as declared (300 "retired", for example: v1 is not supported any more). Refusals leave too few round trips to prove the converters right; a converter should refuse only what v1 cannot hold\n  (replay with seed 5)',
    );
  });

  it("fails a pair whose declared refusals leave fewer round trips than asked for, with the count by reason", async () => {
    // About 19 objects in 20 refused: 30 round trips would take about 600 objects, past the budget of 300.
    const mostly = withConverter(
      (object, { refuse }) => {
        const text = JSON.stringify(object, (_key, value: unknown) => (typeof value === "bigint" ? `${value}` : value));
        if (text.length % 20 !== 0) throw refuse("retired", "v1 is mostly retired");
        return object;
      },
      { "v2->v1": { retired: "v1 is retired" } },
    );
    const [report] = await checkKinds([mostly], { runs: 30, seed: 5 });
    const pair = report!.pairs.find((p) => p.from === "v2")!;
    expect(pair.generated).toBe(300);
    expect(pair.roundTrips).toBeLessThan(30);
    expect(report!.failure).toMatch(
      /v2 -> v1 -> v2: only \d+ of 30 objects made the round trip: of 300 generated, \d+ were refused as declared \(\d+ "retired"/,
    );
  });

  it("tells a refusal by what the converter did, not by its words: one that reads like a schema failure is a refusal", async () => {
    // The engine's words for a result its target schema refuses, and the batch's for the object.
    const words =
      "the converter's result does not match the v1 schema: size: object 0 (a) Thing kit.example.com/v2 -> kit.example.com/v1: no";
    const mimic = withConverter(
      (_object, { refuse }) => {
        throw refuse("retired", words);
      },
      { "v2->v1": { retired: "v1 is retired" } },
    );
    const [report] = await checkKinds([mimic], { runs: 30, seed: 5 });
    expect(report!.failure).toContain(
      `Thing.kit.example.com v2 -> v1 -> v2: only 0 of 30 objects made the round trip: of 300 generated, 300 were refused as declared (300 "retired", for example: ${words})`,
    );
  });

  it("counts a result that fails the target schema as a defect, not a refusal", async () => {
    const [report] = await checkKinds([withConverter(({ width, ...rest }) => ({ ...rest, size: "large" }))], {
      runs: 20,
      seed: 5,
    });
    expect(report!.failure).toMatch(
      /converting to v1 failed: the converter's result does not match the v1 schema: size: /,
    );
  });
});

describe("objects as the webhook hands them over", () => {
  it("catches a converter that loses a field named __proto__ (Object.assign onto {})", async () => {
    const lossy = withConverter(({ width, ...rest }) => Object.assign({}, rest, { size: width }));
    await expect(assertRoundTrips(lossy, { seed: 11 })).rejects.toThrow(
      /not the same after the round trip: (spec\.)?__proto__ was .*, came back missing/,
    );
  });

  it("passes the same converter written with Object.assign onto the destructured rest", async () => {
    await assertRoundTrips(
      withConverter(({ width, ...rest }) => Object.assign(rest, { size: width })),
      { seed: 11 },
    );
  });

  it("catches a converter that rounds integers beyond 2^53", async () => {
    const rounding = withConverter(({ width, ...rest }) =>
      JSON.parse(
        JSON.stringify({ ...rest, size: width }, (_key, value) => (typeof value === "bigint" ? Number(value) : value)),
      ),
    );
    await expect(assertRoundTrips(rounding, { seed: 11 })).rejects.toThrow(
      /not the same after the round trip: .* was -?\d{16,}, came back -?\d+/,
    );
  });
});

describe("the zod round trips with the kind's CRD known", () => {
  it("prune their objects as the apiserver does: a field the CRD drops is owed by no converter", async () => {
    const spec = z.optional(z.looseObject({ size: z.optional(z.number()) }));
    // Keeps spec.size only, as a Go struct would: unknown fields under spec are dropped.
    const keepSize = ({ spec, ...rest }: any) =>
      spec === undefined ? rest : { ...rest, spec: spec.size === undefined ? {} : { size: spec.size } };
    const kind = defineKind({
      group: "example.com",
      kind: "Thing",
      versions: { v1: z.looseObject({ spec }), v2: z.looseObject({ spec }) },
      converters: { v1: { v2: keepSize }, v2: { v1: keepSize } },
    });
    const size = { type: "object", properties: { size: { type: "integer" } } };
    const crd = twoVersionCrd({ group: "example.com", kind: "Thing", plural: "things" }, size, size);
    const [blind] = await checkKinds([kind], { runs: 50, seed: 3 });
    expect(blind!.failure).toMatch(/not the same after the round trip: spec(\.|\[)\S* was .*, came back missing/);
    const [known] = await checkKinds([kind], { runs: 50, seed: 3, crds: [crd] });
    expect(known!.failure).toBeUndefined();
  });
});
