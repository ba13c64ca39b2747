import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { readCrdFile } from "../../src/cli/crd-files";
import { type Converter, createRegistry, defineKind, type KindSpec, refuse } from "../../src/conversion";
import { checkAgainstCrd } from "../../src/check/crd-check";
import { roundTripObject } from "../../src/check/object-round-trip";
import { assertRoundTrips, checkKinds } from "../../src/check/round-trip";
import { mapDown, mapUp, pump } from "../fixtures/pump-kinds";

const file = "test/fixtures/crds/pumps.example.com.yaml";
const [crd] = readCrdFile(file, file).crds;

const schema = z.looseObject({
  spec: z.optional(z.looseObject({ size: z.optional(z.number()), tags: z.optional(z.array(z.string())) })),
});
type Versions = { v1: typeof schema; v2: typeof schema };

/** A kind whose v2 -> v1 converter (the first pair tried) is the one given; v1 -> v2 copies. */
function thing(toV1: Converter<typeof schema, typeof schema>, more: Partial<KindSpec<Versions>> = {}) {
  return defineKind({
    group: "conduct.example.com",
    kind: "Thing",
    versions: { v1: schema, v2: schema },
    converters: { v1: { v2: (object) => object }, v2: { v1: toV1 } },
    ...more,
  });
}

describe("converters are called as the apiserver may call them: again, and side by side", () => {
  it("flags a converter that changes its input", async () => {
    const mutating = thing((object) => {
      if (object.spec) object.spec.size = 1;
      return object;
    });
    await expect(assertRoundTrips(mutating, { seed: 1 })).rejects.toThrow(
      /^Thing\.conduct\.example\.com v2 -> v1 -> v2: the v2 -> v1 converter changed its input \(spec\.size was .*, came back 1\): converters must build their result, not edit what they were given/,
    );
  });

  it("flags a converter that throws, on its second call, a value that cannot be printed, and says what it threw", async () => {
    let calls = 0;
    const flaky = thing((object) => {
      if (calls++ % 2 === 1) throw Object.create(null);
      return object;
    });
    await expect(assertRoundTrips(flaky, { seed: 1 })).rejects.toThrow(
      /the v2 -> v1 converter threw on a second call with the same input, not on the first: an object that cannot be converted to a string \(\[object Object\]\)/,
    );
  });

  it("flags a converter that returns the same object for different inputs", async () => {
    const shared: Record<string, unknown> = {};
    const identity = thing((object) => Object.assign(shared, object));
    await expect(assertRoundTrips(identity, { seed: 1 })).rejects.toThrow(
      /the v2 -> v1 converter returned the same object for two inputs that differ: it keeps state between conversions/,
    );
  });

  it("passes a converter that memoises its whole result by input: the engine copies each result", async () => {
    const memo = new Map<string, object>();
    const memoised = thing((object) => {
      const key = JSON.stringify(object, (_, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
      const known = memo.get(key) ?? Object.freeze({ ...object });
      memo.set(key, known);
      return known as typeof object;
    });
    await expect(assertRoundTrips(memoised, { seed: 1 })).resolves.toBeUndefined();
    expect(memo.size).toBeGreaterThan(1);
  });

  it("flags a converter that answers differently when called again", async () => {
    let calls = 0;
    const counting = thing(({ spec, ...rest }) => ({ ...rest, spec: { ...spec, size: calls++ } }));
    await expect(assertRoundTrips(counting, { seed: 1 })).rejects.toThrow(
      /the v2 -> v1 converter is not deterministic: two calls with the same input gave different results \(spec\.size was \d+, came back \d+\)/,
    );
  });

  it("flags them against a CRD too", async () => {
    let calls = 0;
    // Stamps the time of the call on the way down, drops it on the way up: round trips, but says something new each call.
    const stamping = pump(
      ({ metadata, ...rest }) => mapUp({ ...rest, metadata: { ...(metadata as object), annotations: {} } }),
      (object) =>
        mapDown({ ...object, metadata: { ...(object.metadata as object), annotations: { at: String(calls++) } } }),
    );
    const report = await checkAgainstCrd([stamping], crd!, { seed: 1 });
    expect(report.failure).toMatch(
      /^Pump\.example\.com v1 -> v1beta1 -> v1.*: the v1 -> v1beta1 converter is not deterministic/,
    );
  });
});

describe("empty and absent are the same only where a kind declares it", () => {
  // A faithful port of Go's omitempty: an empty list is written as none.
  const omitEmpty: Converter<typeof schema, typeof schema> = ({ spec, ...rest }) => {
    if (!spec) return rest;
    const { tags, ...keep } = spec;
    return { ...rest, spec: tags?.length ? { ...keep, tags } : keep };
  };

  it("fails the round trip without a declaration", async () => {
    await expect(assertRoundTrips(thing(omitEmpty), { seed: 1 })).rejects.toThrow(
      /not the same after the round trip: spec\.tags was \[\], came back missing/,
    );
  });

  it("accepts the difference at a declared path, and reports each path and how often", async () => {
    const [report] = await checkKinds([thing(omitEmpty, { emptyIsAbsent: ["spec.tags"] })], { seed: 1 });
    expect(report!.failure).toBeUndefined();
    const accepted = report!.pairs.find((pair) => pair.from === "v2")!.emptyIsAbsent;
    expect(accepted).toEqual([{ path: "spec.tags", count: expect.any(Number) }]);
    expect(accepted[0]!.count).toBeGreaterThan(0);
  });

  it("accepts nothing at other paths", async () => {
    await expect(assertRoundTrips(thing(omitEmpty, { emptyIsAbsent: ["spec.other"] }), { seed: 1 })).rejects.toThrow(
      /spec\.tags was \[\], came back missing/,
    );
  });

  it("works against a CRD, with list items written as []", async () => {
    const dropEmptySubject = pump((object) => {
      const mapped = mapUp(object);
      if (mapped.spec?.subject && Object.keys(mapped.spec.subject).length === 0) {
        const { subject, ...spec } = mapped.spec;
        return { ...mapped, spec };
      }
      return mapped;
    }, mapDown);
    expect((await checkAgainstCrd([dropEmptySubject], crd!, { seed: 3 })).failure).toMatch(
      /spec\.subject was \{\}, came back missing/,
    );
    const declared = pump(
      (object) => dropEmptySubject.route("v1beta1", "v1")![0]!.convert(object as never, context) as never,
      mapDown,
      { emptyIsAbsent: ["spec.subject"] },
    );
    const report = await checkAgainstCrd([declared], crd!, { seed: 3 });
    expect(report.failure).toBeUndefined();
    expect(report.pairs.find((pair) => pair.from === "v1beta1")!.emptyIsAbsent[0]?.path).toBe("spec.subject");
  });
});

const context = { group: "example.com", kind: "Pump", from: "v1beta1", to: "v1", refuse };

describe("a hub version that always holds a struct (docs/checks.md)", () => {
  const fill = (object: Parameters<typeof mapUp>[0]) => {
    const mapped = mapUp(object);
    return mapped.spec ? { ...mapped, spec: { ...mapped.spec, subject: mapped.spec.subject ?? {} } } : mapped;
  };
  it("needs no stash annotation with emptyIsAbsent, and fails without it", async () => {
    expect((await checkAgainstCrd([pump(fill, mapDown)], crd!, { seed: 2 })).failure).toMatch(
      /spec\.subject was missing, came back \{\}/,
    );
    const report = await checkAgainstCrd([pump(fill, mapDown, { emptyIsAbsent: ["spec.subject"] })], crd!, { seed: 2 });
    expect(report.failure).toBeUndefined();
  });
});

describe("defineKind checks the new declarations", () => {
  const define = (more: Record<string, unknown>) => () => thing((object) => object, more as never);
  it("refuses a refusals key that is not a pair of its versions, or has no reason", () => {
    expect(define({ refusals: { "v2->v3": "x" } })).toThrow(
      'Thing.conduct.example.com: refusals key "v2->v3" is not "FROM->TO" with two of its versions (v1, v2)',
    );
    expect(define({ refusals: { "v2->v1": {} } })).toThrow('refusals "v2->v1" must name its reasons');
    expect(define({ refusals: { "v2->v1": { "no-port": "" } } })).toThrow('reason "no-port" needs a why');
    expect(define({ refusals: { "v2->v1": { "No Port": "why" } } })).toThrow('reason "No Port" is not a name');
  });
  it("refuses a pair-wide refusal reason, which would pass any throw of the pair, saying how to name it", () => {
    expect(define({ refusals: { "v2->v1": "v1 is retired" } })).toThrow(
      'Thing.conduct.example.com: refusals "v2->v1" is one reason for the whole pair, which would pass any throw of its converters as declared — name each reason: refusals: { "v2->v1": { "some-reason": "v1 is retired" } }, and refuse with context.refuse("some-reason", message)',
    );
  });
  it("refuses emptyIsAbsent paths with list indices", () => {
    expect(define({ emptyIsAbsent: ["spec.rules[0]"] })).toThrow("emptyIsAbsent is true or a list of field paths");
    expect(define({ emptyIsAbsent: true })).not.toThrow();
  });
});

describe("a refusal of an object the CRD would never store is no finding; a partial object is sent unchecked", () => {
  const widgetFile = "test/fixtures/crds/widgets.example.com.yaml";
  const [widgets] = readCrdFile(widgetFile, widgetFile).crds;
  const loose = z.looseObject({});
  /** Refuses what breaks the CRD's CEL rule `self.size <= 100 || self.mode == 'Large'`, as a converter relying on it may. */
  const guard = (object: Record<string, unknown>) => {
    const spec = object.spec as { size?: number; mode?: string } | undefined;
    if (spec?.size !== undefined && spec.size > 100 && spec.mode !== "Large")
      throw new Error("large sizes need mode Large");
    return object;
  };
  const widget = defineKind({
    group: "example.com",
    kind: "Widget",
    versions: { v1: loose, v1beta1: loose },
    converters: { v1: { v1beta1: guard }, v1beta1: { v1: guard } },
  });

  it("counts refusals of whole objects that break their own CEL rules, without a declaration", async () => {
    const report = await checkAgainstCrd([widget], widgets!, { seed: 1, runs: 50 });
    expect(report.pairs.some((pair) => pair.refusedOutsideCrd > 0)).toBe(true);
    expect(report.pairs.every((pair) => pair.refused === 0)).toBe(true);
    // The partial objects that break the rule are findings (below): nothing else is.
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((finding) => finding.partial && finding.rule === "refused")).toBe(true);
  });

  // Server-side apply sends its partial objects (the applied configuration, managed fields) to
  // the webhook without evaluating CEL rules on them: a throw there fails the apply in a cluster.
  it("does not excuse a plain Error on a partial object that breaks a CEL rule", async () => {
    const schemaOf = new Map(widgets!.versions.map((version) => [version.name, version.schema]));
    const setup = {
      registry: createRegistry([widget]),
      kind: widget,
      equivalences: {},
      crd: { schemaOf, asStored: true },
      celErrors: new Map(),
    };
    const object = { apiVersion: "example.com/v1", kind: "Widget", spec: { size: 101 } };
    // Whole, the apiserver would never store it: no finding, counted.
    await expect(roundTripObject(setup, { object, partial: false }, "v1", "v1beta1")).resolves.toMatchObject({
      refusedOutsideCrd: true,
    });
    // Partial, it reaches the webhook as it is: the undeclared refusal is a finding.
    await expect(roundTripObject(setup, { object, partial: true }, "v1", "v1beta1")).rejects.toThrow(
      "naming no declared reason: large sizes need mode Large",
    );
    const report = await checkAgainstCrd([widget], widgets!, { seed: 1, runs: 50 });
    expect(report.ok).toBe(false);
    expect(report.failure).toContain("(a partial object): the converter refused an object");
  });

  it("passes a declared refusal on a partial object that breaks a CEL rule, counted by reason", async () => {
    const declared = (object: Record<string, unknown>) => {
      const spec = object.spec as { size?: number; mode?: string } | undefined;
      if (spec?.size !== undefined && spec.size > 100 && spec.mode !== "Large")
        throw refuse("needs-large", "large sizes need mode Large");
      return object;
    };
    const refusing = defineKind({
      group: "example.com",
      kind: "Widget",
      versions: { v1: loose, v1beta1: loose },
      refusals: {
        "v1->v1beta1": { "needs-large": "a size over 100 needs mode Large" },
        "v1beta1->v1": { "needs-large": "a size over 100 needs mode Large" },
      },
      converters: { v1: { v1beta1: declared }, v1beta1: { v1: declared } },
    });
    const report = await checkAgainstCrd([refusing], widgets!, { seed: 1, runs: 50 });
    expect(report.failure).toBeUndefined();
    expect(report.pairs.some((pair) => pair.refusedBy.some((entry) => entry.reason === "needs-large"))).toBe(true);
  });
});
