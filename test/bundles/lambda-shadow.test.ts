import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { functionUrlEvent, LambdaHost } from "./lambda";

/**
 * A Lambda bundle with a shadow candidate (test/fixtures/lambda-shadow-entry.ts), built as
 * `npm run build:lambda` builds the examples' and run in a node process as the runtime runs it.
 * The result is handed back first; the candidate runs after it.
 */
const root = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "crdshift-lambda-shadow-"));
const bundles = { plain: join(work, "plain.mjs"), shadow: join(work, "shadow.mjs") };
const docsV1 = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const body = JSON.stringify(JSON.parse(docsV1));
const failing = body.replace('"localhost:1234"', '"no port"');

beforeAll(async () => {
  for (const [name, entry] of [
    ["plain", "examples/entry/lambda.ts"],
    ["shadow", "test/fixtures/lambda-shadow-entry.ts"],
  ] as const) {
    await build({
      entryPoints: [join(root, entry)],
      bundle: true,
      platform: "node",
      target: "node22",
      format: "esm",
      minify: true,
      external: ["@aws-sdk/*"],
      outfile: bundles[name],
      logLevel: "warning",
    });
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function results(env: Record<string, string>, bundle: string) {
  const host = new LambdaHost(env, bundle);
  const replies = [];
  for (const sent of [body, failing, body])
    replies.push(await host.invoke(functionUrlEvent({ path: "/convert", body: sent })));
  return { replies, ...(await host.stop()) };
}

describe("the Lambda bundle with a shadow candidate", () => {
  it("counts and logs the candidate's differences after the result, by path, without values", async () => {
    const { replies, stdout, stderr } = await results({ CRDSHIFT_SHADOW_SAMPLE: "1" }, bundles.shadow);
    expect(replies).toEqual((await results({}, bundles.plain)).replies);
    const emf = stdout
      .split("\n")
      .filter((line) => line.includes("ShadowDifferences"))
      .map((line) => JSON.parse(line));
    expect(emf[0]).toMatchObject({ CRD: "CronTab.example.com", From: "v1beta1", To: "v1", ShadowDifferences: 2 });
    const logged = stderr.split("\n").filter((line) => line.includes('"shadow difference"'));
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) {
      expect(JSON.parse(line)).toMatchObject({ paths: ["port"] });
      expect(line).not.toMatch(/1234|localhost/);
    }
  });

  it.each([
    ["throws", "failed"],
    ["never-settles", "timed-out"],
    ["slow", undefined],
    ["allocates", undefined],
    ["floods", "failed"],
  ])("hands back the same results when the candidate %s", async (candidate, failure) => {
    const shadowed = await results({ CRDSHIFT_SHADOW_SAMPLE: "1", TEST_CANDIDATE: candidate }, bundles.shadow);
    expect(shadowed.replies).toEqual((await results({}, bundles.plain)).replies);
    expect(shadowed.stderr).not.toMatch(/"level":"error"/);
    const failed = shadowed.stderr.split("\n").filter((line) => line.includes('"shadow candidate failed"'));
    if (failure) expect(JSON.parse(failed[0]!)).toMatchObject({ reason: failure });
    else expect(failed).toEqual([]);
  });
});
