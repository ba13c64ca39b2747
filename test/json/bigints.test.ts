import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BIGINT_SPELLING, stringifyWithBigInts } from "../../src/json/bigints";
import { deepDocuments, documents, printings, printsAsExpected, swapStrays } from "./bigint-documents";
import { runs } from "../property-runs";

// Node 20 has no JSON.rawJSON: the marked spelling is the one that runs here; the raw one runs
// inside workerd (test/workers/json-bigints.test.ts) and on the Lambda runtime's Node
// (lambda-runtime-json.test.ts).
const noRawJson = `JSON.rawJSON is missing in Node ${process.version}: this runtime prints bigints through marked strings only`;

describe("integers beyond 2^53 are written back byte-exact", () => {
  it("property: through marked strings (every runtime), by each route, as the document says", () => {
    fc.assert(printsAsExpected(documents, printings("marked")), { numRuns: runs(1000) });
  });

  it("property: through JSON.rawJSON, the same bytes as through marked strings", (context) => {
    if (BIGINT_SPELLING !== "raw-json") context.skip(noRawJson);
    fc.assert(printsAsExpected(documents, { ...printings("raw-json"), ...printings("marked") }), {
      numRuns: runs(1000),
    });
  });

  it("property: nested up to 10,000 levels, as the apiserver allows", () => {
    fc.assert(printsAsExpected(deepDocuments(10_000), {}, true), { numRuns: 30 });
  });

  it("the runtime's spelling leaves BigInt.prototype as it found it, a toJSON of its own included", () => {
    expect(Object.hasOwn(BigInt.prototype, "toJSON")).toBe(false);
    expect(stringifyWithBigInts({ a: [-(2n ** 63n)] })).toBe('{"a":[-9223372036854775808]}');
    expect(Object.hasOwn(BigInt.prototype, "toJSON")).toBe(false);
    // A program that prints bigints as strings everywhere else still gets its int64 back as numbers.
    const own = {
      value: function (this: bigint) {
        return String(this);
      },
      writable: true,
      configurable: true,
    };
    Object.defineProperty(BigInt.prototype, "toJSON", own);
    try {
      expect(stringifyWithBigInts({ a: 12345678901234567890n })).toBe('{"a":12345678901234567890}');
      expect(Object.getOwnPropertyDescriptor(BigInt.prototype, "toJSON")).toEqual({ ...own, enumerable: false });
    } finally {
      delete (BigInt.prototype as { toJSON?: unknown }).toJSON;
    }
  });

  it("values that are not plain data print with bigints swapped in place as through BigInt.prototype.toJSON", (context) => {
    if (BIGINT_SPELLING !== "raw-json") context.skip(noRawJson);
    expect(swapStrays()).toEqual([]);
  });
});
