import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { lambdaRuntimeNode } from "../bundles/lambda-runtime-node";
import { runBundled } from "../bundles/run-bundled";

// crdshift's JSON on the Node major of the Lambda runtime (22), where JSON.rawJSON and JSON.parse's
// source text access exist, run in a child process of that Node (fetched from the npm registry on
// first use). Apart from bigints.test.ts and careful-numbers.test.ts so that `npm run test:unit`
// leaves it out: no child Node, no download.

describe("integers beyond 2^53 are written back byte-exact", () => {
  it("on the Lambda runtime's Node (22): through JSON.rawJSON, the same bytes as through marked strings, bigints swapped in place or not, on documents and on values that are not plain data", async () => {
    const node = lambdaRuntimeNode();
    const run = await runBundled(
      node,
      `
            import fc from "fast-check";
            import { BIGINT_SPELLING } from "../../src/json/bigints";
            import { deepDocuments, documents, printings, printsAsExpected, swapStrays } from "./bigint-documents";
            if (BIGINT_SPELLING !== "raw-json") throw new Error("JSON.rawJSON is missing in Node " + process.version);
            fc.assert(printsAsExpected(documents, { ...printings("raw-json"), ...printings("marked") }), { numRuns: 1000 });
            const strays = swapStrays();
            if (strays.length > 0) throw new Error(strays.join("; "));
            fc.assert(printsAsExpected(deepDocuments(10_000), {}, true), { numRuns: 10 });
            process.stdout.write("agreed on " + process.version);
          `,
      fileURLToPath(new URL(".", import.meta.url)),
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^agreed on v22\./);
  });
});

describe("integers beyond 2^53 beside digit runs in strings", () => {
  it("on the Lambda runtime's Node (22): JSON.parse's source text access reads them as crdshift and lossless-json do", async () => {
    const node = lambdaRuntimeNode();
    const run = await runBundled(
      node,
      `
            import fc from "fast-check";
            import { HAS_SOURCE_TEXT, readsAsLosslessJson } from "./hostile-documents";
            if (!HAS_SOURCE_TEXT) throw new Error("no source text access in Node " + process.version);
            fc.assert(readsAsLosslessJson, { numRuns: 3000 });
            process.stdout.write("agreed on " + process.version);
          `,
      fileURLToPath(new URL(".", import.meta.url)),
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^agreed on v22\./);
  });
});
