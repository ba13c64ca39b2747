import { describe, expect, it } from "vitest";
import { type Equivalences, roundTripDifference } from "../../src/check/round-trip-comparison";

describe("emptyIsAbsent accepts an empty field for an absent one, never a list item lost or added", () => {
  const everywhere = (): Equivalences => ({ emptyIsAbsent: true, accepted: new Map() });

  it("accepts {} for an absent field, and says where", () => {
    const equivalences = everywhere();
    expect(roundTripDifference({ spec: { subject: {} } }, { spec: {} }, equivalences)).toBeUndefined();
    expect([...equivalences.accepted!]).toEqual([["spec.subject", 1]]);
  });

  it("fails an empty list item dropped or added, declared everywhere or at the items' path", () => {
    expect(
      roundTripDifference({ spec: { rules: [{ a: 1 }, {}] } }, { spec: { rules: [{ a: 1 }] } }, everywhere()),
    ).toBe('spec.rules had 2 items, came back with 1: [{"a":1},{}] -> [{"a":1}]');
    expect(roundTripDifference({ spec: { rules: [] } }, { spec: { rules: [[]] } }, everywhere())).toMatch(
      /^spec\.rules had 0 items, came back with 1/,
    );
    const atItems: Equivalences = { emptyIsAbsent: ["spec.rules[]"], accepted: new Map() };
    expect(roundTripDifference({ spec: { rules: [{}, {}] } }, { spec: { rules: [] } }, atItems)).toMatch(
      /^spec\.rules had 2 items, came back with 0/,
    );
  });
});

describe("emptyIsAbsent composes: an object of declared empties is empty at its own declared path", () => {
  const at = (...paths: string[]): Equivalences => ({ emptyIsAbsent: paths, accepted: new Map() });

  it("accepts {list: []} for an absent field when both paths are declared, counting each", () => {
    const equivalences = at("spec.subject", "spec.subject.list");
    expect(roundTripDifference({ spec: { subject: { list: [] } } }, { spec: {} }, equivalences)).toBeUndefined();
    expect(
      roundTripDifference(
        { spec: {} },
        { spec: { subject: { list: [], selector: {} } } },
        at("spec.subject", "spec.subject.list", "spec.subject.selector"),
      ),
    ).toBeUndefined();
    expect([...equivalences.accepted!].sort()).toEqual([
      ["spec.subject", 1],
      ["spec.subject.list", 1],
    ]);
    // Inside list items, by their `[]` path.
    expect(
      roundTripDifference(
        { spec: { rules: [{ when: { names: [] } }] } },
        { spec: { rules: [{}] } },
        at("spec.rules[].when", "spec.rules[].when.names"),
      ),
    ).toBeUndefined();
  });

  it("fails it where either path is not declared", () => {
    expect(roundTripDifference({ spec: { subject: { list: [] } } }, { spec: {} }, at("spec.subject"))).toBe(
      'spec.subject was {"list":[]}, came back missing',
    );
    expect(roundTripDifference({ spec: { subject: { list: [] } } }, { spec: {} }, at("spec.subject.list"))).toBe(
      'spec.subject was {"list":[]}, came back missing',
    );
  });

  it("fails anything that holds a value, declared everywhere: a lost item, string, number, false or null", () => {
    const everywhere = (): Equivalences => ({ emptyIsAbsent: true, accepted: new Map() });
    for (const kept of [["a"], [{}], "", 0, false, null])
      expect(roundTripDifference({ spec: { subject: { list: kept } } }, { spec: {} }, everywhere())).toMatch(
        /^spec\.subject was /,
      );
    expect(roundTripDifference({ spec: {} }, { spec: { subject: { a: { b: {} }, c: 1 } } }, everywhere())).toMatch(
      /^spec\.subject was missing, came back/,
    );
  });
});
