import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createRegistry, defineKind, DefinitionError, stashFields, unstashFields } from "../../src/conversion";
import { type RoundTripSetup, roundTripObject } from "../../src/check/object-round-trip";
import { equivalencesOf } from "../../src/check/round-trip-comparison";
import { checkAgainstCrd } from "../../src/check/crd-check";
import { twoVersionCrd } from "./two-version-crd";

// defineKind's `gaps`: v2 requires what v1 may omit (a spec; a strategy's type). A faithful
// converter leaves an absent field absent, and the result check accepts exactly that where the
// kind declared it; every other way of breaking v2's schema still fails.

const crd = twoVersionCrd(
  { group: "gaps.example.com", kind: "Rollout", plural: "rollouts" },
  {
    type: "object",
    properties: {
      strategy: {
        type: "object",
        properties: { type: { type: "string", enum: ["Recreate", "Rolling"] }, surge: { type: "integer" } },
      },
    },
  },
  {
    type: "object",
    properties: {
      strategy: {
        type: "object",
        required: ["type"],
        properties: { type: { type: "string", enum: ["Recreate", "Rolling"] }, surge: { type: "integer" } },
      },
    },
  },
  { v2: { required: ["spec"] } },
);

const surge = z.optional(z.union([z.number(), z.bigint()]));
const strategy = z.optional(z.looseObject({ type: z.optional(z.string()), surge }));
const schema = z.looseObject({ spec: z.optional(z.looseObject({ strategy })) });
type Rollout = z.infer<typeof schema>;
const same = (object: Rollout) => object;

function rollout(toV2: (object: Rollout) => Rollout, gaps?: Record<string, Record<string, string>>) {
  return defineKind({
    group: "gaps.example.com",
    kind: "Rollout",
    versions: { v1: schema, v2: schema },
    converters: { v1: { v2: toV2 }, v2: { v1: toV1 } },
    ...(gaps ? { gaps } : {}),
  });
}

// The way back puts back what a (wrong) way up hid in the stash, so that only the result check can see it.
function toV1(object: Rollout): Rollout {
  const { object: rest, fields } = unstashFields(object);
  return fields.spec === undefined ? rest : { ...rest, spec: fields.spec as Rollout["spec"] };
}

function setup(kind: ReturnType<typeof rollout>): RoundTripSetup {
  return {
    registry: createRegistry([kind]),
    kind,
    equivalences: { ...equivalencesOf(kind), acceptedGaps: new Map() },
    celErrors: new Map(),
    crd: { schemaOf: new Map(crd.versions.map((version) => [version.name, version.schema])), asStored: true },
  };
}

const v1 = (spec?: Record<string, unknown>) => ({
  object: { apiVersion: "gaps.example.com/v1", kind: "Rollout", metadata: { name: "r" }, ...(spec ? { spec } : {}) },
  partial: false,
});

const SPEC_GAP = { "v1->v2": { spec: "v1 objects may have no spec; v2 requires one" } };
const TYPE_GAP = { "v1->v2": { "spec.strategy.type": "v1 strategies may omit their type" } };

describe("a declared gap accepts a required field missing in the result where the input lacks it too", () => {
  it("fails a faithful converter without the declaration, and passes it with one, counting each use", async () => {
    await expect(roundTripObject(setup(rollout(same)), v1(), "v1", "v2")).rejects.toThrow(
      /the v2 result breaks the CRD's v2 schema: spec: missing, but required/,
    );
    const declared = setup(rollout(same, SPEC_GAP));
    await expect(roundTripObject(declared, v1(), "v1", "v2")).resolves.toMatchObject({ unvalidated: false });
    await expect(roundTripObject(declared, v1(), "v1", "v2")).resolves.toBeDefined();
    expect([...declared.equivalences.acceptedGaps!]).toEqual([["spec", 2]]);
  });

  it("accepts a nested required field the input's object lacks", async () => {
    await expect(roundTripObject(setup(rollout(same)), v1({ strategy: {} }), "v1", "v2")).rejects.toThrow(
      /spec\.strategy\.type: missing, but required/,
    );
    await expect(
      roundTripObject(setup(rollout(same, TYPE_GAP)), v1({ strategy: { surge: 1 } }), "v1", "v2"),
    ).resolves.toBeDefined();
  });
});

describe("checkAgainstCrd with a declared gap", () => {
  it("passes a faithful converter on generated objects, reporting the gap's uses per pair, and fails it without", async () => {
    const declared = await checkAgainstCrd(
      [rollout(same, { "v1->v2": { ...SPEC_GAP["v1->v2"], ...TYPE_GAP["v1->v2"] } })],
      crd,
      { runs: 60, seed: 7 },
    );
    expect(declared.failure).toBeUndefined();
    const up = declared.pairs.find((pair) => pair.from === "v1")!;
    expect(up.gaps.map(({ path, why }) => [path, why]).sort()).toEqual([
      ["spec", "v1 objects may have no spec; v2 requires one"],
      ["spec.strategy.type", "v1 strategies may omit their type"],
    ]);
    expect(up.gaps.every(({ count }) => count > 0)).toBe(true);
    expect(declared.pairs.find((pair) => pair.from === "v2")!.gaps).toEqual([]);
    const undeclared = await checkAgainstCrd([rollout(same)], crd, { runs: 60, seed: 7 });
    expect(undeclared.failure).toMatch(
      /v1 -> v2 -> v1: .*the v2 result breaks the CRD's v2 schema: spec(\.strategy\.type)?: missing, but required/s,
    );
  });
});

describe("a declared gap never turns a wrong converter green", () => {
  // Each converter below is wrong; the round trip cannot see it (the stash brings everything
  // back), so the result check is all that stands between it and a cluster.
  const dropsSpec = ({ spec, ...rest }: Rollout) => stashFields(rest, { spec });
  const dropsType = (object: Rollout) => {
    const { type, ...strategy } = object.spec?.strategy ?? {};
    return stashFields({ ...object, spec: { ...object.spec, strategy } }, { spec: object.spec });
  };

  it("fails a converter that loses a field the input held, at the declared path", async () => {
    await expect(
      roundTripObject(setup(rollout(dropsSpec, SPEC_GAP)), v1({ strategy: { type: "Rolling" } }), "v1", "v2"),
    ).rejects.toThrow(/spec: missing, but required/);
    await expect(
      roundTripObject(setup(rollout(dropsType, TYPE_GAP)), v1({ strategy: { type: "Rolling" } }), "v1", "v2"),
    ).rejects.toThrow(/spec\.strategy\.type: missing, but required/);
  });

  it("fails anything else wrong at or under the declared path: a value of the wrong type or outside the enum", async () => {
    const badType = (object: Rollout) => ({ ...object, spec: { strategy: { type: "rolling" } } });
    await expect(roundTripObject(setup(rollout(badType, TYPE_GAP)), v1(), "v1", "v2")).rejects.toThrow(
      /spec\.strategy\.type: "rolling" is not one of the enum values/,
    );
    // Under the declared spec: surge is an integer in the CRD (zod takes any number).
    const badSurge = (object: Rollout) => ({ ...object, spec: { strategy: { type: "Rolling", surge: 1.5 } } });
    await expect(roundTripObject(setup(rollout(badSurge, SPEC_GAP)), v1(), "v1", "v2")).rejects.toThrow(
      /spec\.strategy\.surge: expected an integer, received 1\.5/,
    );
  });

  it("covers only its own pair and path", async () => {
    // Declared for spec, not for the strategy's type, and the other way round.
    await expect(roundTripObject(setup(rollout(same, SPEC_GAP)), v1({ strategy: {} }), "v1", "v2")).rejects.toThrow(
      /spec\.strategy\.type: missing, but required/,
    );
    await expect(roundTripObject(setup(rollout(same, TYPE_GAP)), v1(), "v1", "v2")).rejects.toThrow(
      /spec: missing, but required/,
    );
    // Declared for v2 -> v1 only: a v1 -> v2 result is held to v2's schema as before.
    const otherWay = setup(rollout(same, { "v2->v1": { spec: "v2 holds what v1 does not" } }));
    await expect(roundTripObject(otherWay, v1(), "v1", "v2")).rejects.toThrow(/spec: missing, but required/);
  });
});

describe("gaps are checked when the module loads", () => {
  const define = (gaps: unknown) => () =>
    defineKind({
      group: "gaps.example.com",
      kind: "Rollout",
      versions: { v1: schema, v2: schema },
      converters: { v1: { v2: same }, v2: { v1: same } },
      gaps: gaps as never,
    });

  it("refuses a pair that is not two of its versions, a path the target's schema lacks, and a gap without a reason", () => {
    expect(define({ "v1->v3": { spec: "why" } })).toThrow(DefinitionError);
    expect(define({ "v1->v2": { "spec.stratgy": "why" } })).toThrow(
      /gaps "v1->v2": spec\.stratgy is not a field of v2's schema/,
    );
    expect(define({ "v1->v2": { "spec.strategy[0]": "why" } })).toThrow(/is not the path of a field/);
    expect(define({ "v1->v2": { spec: " " } })).toThrow(
      /spec needs a reason: why v1 objects may lack what v2 requires/,
    );
  });

  it("types each path by the target version's schema, and refuses at load what slips past the types", () => {
    const narrow = z.looseObject({ spec: z.optional(z.looseObject({ a: z.optional(z.string()) })) });
    const wide = z.looseObject({
      spec: z.optional(z.looseObject({ a: z.optional(z.string()), b: z.optional(z.string()) })),
    });
    const copy = <T>(object: T): T => object;
    const converters = { narrow: { wide: copy }, wide: { narrow: copy } };
    const base = { group: "gaps.example.com", kind: "Rollout", versions: { narrow, wide }, converters };
    expect(defineKind({ ...base, gaps: { "narrow->wide": { "spec.b": "narrow has no b" } } }).gaps).toEqual(
      new Map([["narrow->wide", new Map([["spec.b", "narrow has no b"]])]]),
    );
    expect(() =>
      defineKind({
        ...base,
        // @ts-expect-error -- narrow, the target, has no spec.b
        gaps: { "wide->narrow": { "spec.b": "not a field of narrow" } },
      }),
    ).toThrow(/spec\.b is not a field of narrow's schema/);
  });
});
