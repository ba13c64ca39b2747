import { SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BIGINT_SPELLING } from "../../src/json/bigints";
import { deepDocuments, documents, printings, printsAsExpected, swapStrays } from "../json/bigint-documents";
import { HAS_SOURCE_TEXT, readsAsLosslessJson } from "../json/hostile-documents";

// Inside workerd, which has JSON.rawJSON: the spelling every Worker prints bigints with.
describe("in workerd, integers beyond 2^53 are written back byte-exact", () => {
  it("prints through JSON.rawJSON", () => {
    expect(BIGINT_SPELLING).toBe("raw-json");
  });

  it("property: through JSON.rawJSON, the same bytes as through marked strings, by each route", () => {
    fc.assert(printsAsExpected(documents, { ...printings("raw-json"), ...printings("marked") }), { numRuns: 1000 });
  });

  it("values that are not plain data (frozen, getters, toJSON, proxies) print with bigints swapped in place as through BigInt.prototype.toJSON, and are left as they were", () => {
    expect(swapStrays()).toEqual([]);
  });

  it("property: nested up to 10,000 levels, as the apiserver allows", () => {
    fc.assert(printsAsExpected(deepDocuments(10_000), {}, true), { numRuns: 30 });
  });

  it("property: JSON.parse's source text access reads integers beside digit runs in strings as crdshift and lossless-json do", () => {
    expect(HAS_SOURCE_TEXT).toBe(true);
    fc.assert(readsAsLosslessJson, { numRuns: 2000 });
  });

  it("through the Worker: a converted CronTab keeps its int64 fields digit for digit", async () => {
    const spec = '{"bytes":18446744073709551615,"least":-9223372036854775808,"list":[9007199254740993,1.5,-0,1e+300]}';
    const body =
      '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"int64-1","desiredAPIVersion":"example.com/v1","objects":[' +
      `{"apiVersion":"example.com/v1beta1","kind":"CronTab","metadata":{"name":"a","namespace":"default","uid":"u"},"hostPort":"db:5432","spec":${spec}}]}}\n`;
    const res = await SELF.fetch("https://crdshift.test/convert/workers-test-token-0123456789?timeout=30s", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(
      '"spec":{"bytes":18446744073709551615,"least":-9223372036854775808,"list":[9007199254740993,1.5,0,1e+300]}',
    );
  });
});
