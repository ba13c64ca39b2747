import { describe, expect, it } from "vitest";
import { readConfig } from "../src/config";

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
});
