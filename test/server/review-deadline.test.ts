import { describe, expect, it } from "vitest";
import { reviewDeadline } from "../../src/server/review-deadline";

describe("a review's deadline", () => {
  it("is the budget from when the review started, on a warm instance", () => {
    expect(reviewDeadline(1_000, 25_000, undefined, undefined)).toBe(26_000);
  });

  it("on the first request, loses what the cold start spent of the apiserver's 30 s", () => {
    expect(reviewDeadline(5_000, 25_000, 2_000, undefined)).toBe(27_000);
  });

  it("trusts no cold start longer than Lambda's 10 s init limit, nor one that ended before it began", () => {
    expect(reviewDeadline(100_000, 25_000, 0, undefined)).toBe(115_000);
    expect(reviewDeadline(1_000, 25_000, 9_000, undefined)).toBe(26_000);
  });

  it("is the platform's own limit when that comes first, and only then", () => {
    expect(reviewDeadline(1_000, 25_000, undefined, 3_000)).toBe(3_000);
    expect(reviewDeadline(1_000, 25_000, undefined, 60_000)).toBe(26_000);
  });
});
