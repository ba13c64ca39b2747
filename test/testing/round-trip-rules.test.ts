import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createRegistry, defineKind, type KindSpec, refuse } from "../../src/conversion";
import { twoVersionCrd } from "./two-version-crd";
import { type RoundTripSetup, roundTripObject } from "../../src/check/object-round-trip";

// The one round-trip loop behind checkKind (objects from the zod schemas) and checkAgainstCrd
// (objects from the CRD, kept as the apiserver keeps them): each rule either check held, one
// object at a time, so that dropping it fails here.

const crd = twoVersionCrd(
  { group: "rules.example.com", kind: "Gauge", plural: "gauges" },
  {
    type: "object",
    "x-kubernetes-validations": [{ rule: "!has(self.unit) || self.unit != 'none'" }],
    properties: {
      level: { type: "integer", maximum: 10 },
      unit: { type: "string" },
      items: { type: "array", minItems: 1, items: { type: "string" } },
    },
  },
  {
    type: "object",
    properties: {
      level: { type: "integer", maximum: 10 },
      unit: { type: "string" },
      items: { type: "array", items: { type: "string" } },
    },
  },
);

const loose = z.looseObject({});
type Versions = { v1: typeof loose; v2: typeof loose };
type Body = Record<string, unknown> & { spec?: Record<string, unknown> };

function gauge(toV2: (object: Body) => Body, toV1: (object: Body) => Body, more: Partial<KindSpec<Versions>> = {}) {
  return defineKind({
    group: "rules.example.com",
    kind: "Gauge",
    versions: { v1: loose, v2: loose },
    converters: { v1: { v2: toV2 }, v2: { v1: toV1 } },
    ...more,
  });
}

/** `asStored`: as checkAgainstCrd holds it; false: as checkKind does with the CRD known; undefined: no CRD. */
function setup(kind: ReturnType<typeof gauge>, asStored?: boolean): RoundTripSetup {
  const schemaOf = new Map(crd.versions.map((version) => [version.name, version.schema]));
  return {
    registry: createRegistry([kind]),
    kind,
    equivalences: { emptyIsAbsent: kind.emptyIsAbsent },
    celErrors: new Map(),
    ...(asStored === undefined ? {} : { crd: { schemaOf, asStored } }),
  };
}

const gaugeOf = (spec: Record<string, unknown>) => ({
  object: { apiVersion: "rules.example.com/v1", kind: "Gauge", metadata: { name: "g" }, spec },
  partial: false,
});
const same = (object: Body) => object;
const refuseHigh = (object: Body) => {
  if (Number(object.spec?.level) > 5) throw refuse("too-high", "v2 holds levels up to 5");
  return object;
};
const refuseNone = (object: Body) => {
  if (object.spec?.unit === "none") throw new Error("v2 needs a unit");
  return object;
};

describe("a refusal is a finding unless declared, or the apiserver would not have stored the input", () => {
  it("fails an undeclared refusal, with or without the CRD, and counts a declared one with its reason", async () => {
    const refusing = gauge(refuseHigh, same);
    for (const asStored of [undefined, false, true])
      await expect(roundTripObject(setup(refusing, asStored), gaugeOf({ level: 7 }), "v1", "v2")).rejects.toThrow(
        /the converter refused an object .*v1 schema accepts, for reason "too-high", which v1 -> v2 does not declare: v2 holds levels up to 5\n.*refusals: \{ "v1->v2": \{ "some-reason": "why" \} \}/,
      );
    const declared = gauge(refuseHigh, same, { refusals: { "v1->v2": { "too-high": "levels above 5" } } });
    await expect(roundTripObject(setup(declared, true), gaugeOf({ level: 7 }), "v1", "v2")).resolves.toMatchObject({
      refused: { reason: "too-high", message: "v2 holds levels up to 5" },
      refusedOutsideCrd: false,
    });
  });

  it("fails a throw that names no declared reason, though the pair declares others", async () => {
    // The false green of a pair-wide declaration: a new throw beside a declared refusal.
    const newThrow = (object: Body) => {
      if (object.spec?.unit === "kg") throw new Error("kg is not a unit yet");
      return refuseHigh(object);
    };
    const declared = gauge(newThrow, same, {
      refusals: { "v1->v2": { "too-high": "levels above 5", "too-low": "levels below 0" } },
    });
    for (const asStored of [undefined, false, true])
      await expect(roundTripObject(setup(declared, asStored), gaugeOf({ unit: "kg" }), "v1", "v2")).rejects.toThrow(
        /the converter refused an object .*v1 schema accepts, naming no declared reason \(it declares "too-high", "too-low"\): kg is not a unit yet/,
      );
    // A reason another pair declares is not this pair's.
    const elsewhere = gauge(refuseHigh, same, { refusals: { "v2->v1": { "too-high": "levels above 5" } } });
    await expect(roundTripObject(setup(elsewhere, true), gaugeOf({ level: 7 }), "v1", "v2")).rejects.toThrow(
      /for reason "too-high", which v1 -> v2 does not declare/,
    );
  });

  it("excuses any failure on an input breaking the CRD's CEL rules, not on one that keeps them", async () => {
    // A lost field, on the way back: nothing a cluster could hold shows it when the unit is "none".
    const dropUnit = ({ spec, ...rest }: Body): Body => {
      if (spec === undefined) return rest;
      const { unit, ...keep } = spec;
      return { ...rest, spec: keep };
    };
    for (const asStored of [false, true]) {
      await expect(
        roundTripObject(setup(gauge(same, dropUnit), asStored), gaugeOf({ unit: "none" }), "v1", "v2"),
      ).resolves.toMatchObject({ refusedOutsideCrd: true });
      await expect(
        roundTripObject(setup(gauge(same, dropUnit), asStored), gaugeOf({ unit: "kg" }), "v1", "v2"),
      ).rejects.toThrow(/spec\.unit was "kg", came back missing/);
    }
  });

  it("excuses a refusal of an input breaking the CRD's CEL rules, in both checks", async () => {
    const refusing = gauge(refuseNone, same);
    for (const asStored of [false, true])
      await expect(
        roundTripObject(setup(refusing, asStored), gaugeOf({ unit: "none" }), "v1", "v2"),
      ).resolves.toMatchObject({ refusedOutsideCrd: true });
  });

  it("excuses a refusal of a zod-generated input the CRD's schema refuses, not of one generated from the CRD", async () => {
    // level 50 breaks the CRD's maximum: objects from the looser zod schemas may; one drawn from
    // the CRD itself the apiserver stores, so this check's reading of the schema is the suspect.
    const refusing = gauge(refuseHigh, same);
    await expect(roundTripObject(setup(refusing, false), gaugeOf({ level: 50 }), "v1", "v2")).resolves.toMatchObject({
      refusedOutsideCrd: true,
    });
    await expect(roundTripObject(setup(refusing, true), gaugeOf({ level: 50 }), "v1", "v2")).rejects.toThrow(
      /the converter refused an object the CRD's v1 schema accepts/,
    );
  });
});

describe("the way back", () => {
  it("names a bug in the converter back, in both checks", async () => {
    const broken = gauge(same, (object) => {
      const spec = object.spec as unknown as { missing: { level: number } };
      return { ...object, level: spec.missing.level };
    });
    await expect(roundTripObject(setup(broken), gaugeOf({ level: 1 }), "v1", "v2")).rejects.toThrow(
      /^v2 was accepted, but converting it back threw TypeError: .*a bug in the converter, not a refusal/,
    );
    await expect(roundTripObject(setup(broken, true), gaugeOf({ level: 1 }), "v1", "v2")).rejects.toThrow(
      /^the v2 object \(as the apiserver keeps it\) was accepted, but converting it back threw TypeError: .*a bug in the converter/,
    );
  });

  it("compares with the CRD what the apiserver keeps: a field v1 does not hold is pruned, not a difference", async () => {
    const adding = gauge(same, (object) => ({ ...object, spec: { ...object.spec, extra: 1 } }));
    await expect(roundTripObject(setup(adding, true), gaugeOf({ level: 1 }), "v1", "v2")).resolves.toMatchObject({
      refusedOutsideCrd: false,
    });
    await expect(roundTripObject(setup(adding), gaugeOf({ level: 1 }), "v1", "v2")).rejects.toThrow(
      /not the same after the round trip: spec\.extra/,
    );
  });

  it("holds what comes back to the source's CRD schema, even where the kind declared empty for absent", async () => {
    // items: [] for no items is accepted as the same under emptyIsAbsent, but v1 needs at least one.
    const emptying = gauge(same, (object) => ({ ...object, spec: { ...object.spec, items: [] } }), {
      emptyIsAbsent: ["spec.items"],
    });
    await expect(roundTripObject(setup(emptying, true), gaugeOf({ level: 1 }), "v1", "v2")).rejects.toThrow(
      /^converted back to v1, it breaks the CRD's v1 schema: spec\.items/,
    );
  });
});

describe("what a round trip was held to", () => {
  it("counts an input that breaks its own CRD schema as this check reads it as unvalidated", async () => {
    const copying = gauge(same, same);
    await expect(roundTripObject(setup(copying, true), gaugeOf({ level: 50 }), "v1", "v2")).resolves.toMatchObject({
      unvalidated: true,
      celChecked: false,
    });
    await expect(roundTripObject(setup(copying, true), gaugeOf({ level: 5 }), "v1", "v2")).resolves.toMatchObject({
      unvalidated: false,
      celChecked: true,
    });
  });
});
