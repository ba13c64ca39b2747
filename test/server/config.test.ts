import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/server/config";

const NEXT = "n3xt-t0ken-BBBBBBBBBBBBBB";

describe("the configuration", () => {
  it("refuses a token that would not survive a URL path, without echoing it", () => {
    expect(() => readConfig({ CRDSHIFT_TOKEN: "short/secret" })).toThrow(/CRDSHIFT_TOKEN must be 16 to 256 characters/);
    expect(() => readConfig({ CRDSHIFT_TOKEN: "short/secret" })).not.toThrow(/short\/secret/);
  });
  it("refuses a next token without a current one", () => {
    expect(() => readConfig({ CRDSHIFT_TOKEN_NEXT: NEXT })).toThrow(/without CRDSHIFT_TOKEN/);
  });
  it("refuses a body limit that is not a number", () => {
    expect(() => readConfig({ CRDSHIFT_BODY_LIMIT_BYTES: "32MB" })).toThrow(/positive whole number/);
  });
  it("shadows one review in a hundred unless CRDSHIFT_SHADOW_SAMPLE says otherwise, from 0 to 1", () => {
    expect(readConfig({}).shadowSample).toBe(0.01);
    expect(readConfig({ CRDSHIFT_SHADOW_SAMPLE: "0" }).shadowSample).toBe(0);
    expect(readConfig({ CRDSHIFT_SHADOW_SAMPLE: "1" }).shadowSample).toBe(1);
    for (const bad of ["1.5", "-0.1", "5%", "NaN"])
      expect(() => readConfig({ CRDSHIFT_SHADOW_SAMPLE: bad })).toThrow(
        /CRDSHIFT_SHADOW_SAMPLE must be a number from 0 to 1/,
      );
  });
  it("logs failed reviews only unless CRDSHIFT_LOG_REVIEWS=all, and refuses any other value", () => {
    expect(readConfig({}).logReviews).toBe("failures");
    expect(readConfig({ CRDSHIFT_LOG_REVIEWS: "all" }).logReviews).toBe("all");
    expect(readConfig({ CRDSHIFT_LOG_REVIEWS: " failures " }).logReviews).toBe("failures");
    expect(() => readConfig({ CRDSHIFT_LOG_REVIEWS: "success" })).toThrow(
      'CRDSHIFT_LOG_REVIEWS must be one of failures, all, got "success"',
    );
  });
});
