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
