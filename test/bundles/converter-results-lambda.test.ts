import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PLATFORM_CASES, platformReview } from "../conversion/converter-results";
import { functionUrlEvent, LambdaHost } from "./lambda";

/**
 * A Lambda bundle built as `npm run build:lambda` builds the examples' (its esbuild command,
 * the entry and the output swapped), from a registry whose converters misbehave: in a node
 * process, invoked with function URL events, it replies as the engine's test says.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TOKEN = "lambda-test-token-0123456789";
const work = mkdtempSync(join(tmpdir(), "crdshift-converter-results-"));
let lambda: LambdaHost;

beforeAll(() => {
  const script = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts["build:lambda"]!;
  const args = script
    .split(" ")
    .slice(1)
    .map((arg) =>
      arg === "examples/entry/lambda.ts"
        ? "test/bundles/converter-results-entry.ts"
        : arg.startsWith("--outfile=")
          ? `--outfile=${join(work, "index.mjs")}`
          : arg,
    );
  const built = spawnSync(join(ROOT, "node_modules/.bin/esbuild"), args, { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`esbuild failed: ${built.stderr}`);
  lambda = new LambdaHost({ CRDSHIFT_TOKEN: TOKEN }, join(work, "index.mjs"));
});
afterAll(async () => {
  await lambda?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("the Lambda bundle, with converters that misbehave", () => {
  for (const { kind, result, failure, objects } of PLATFORM_CASES) {
    it(`${kind}: the reply of the engine's test`, async () => {
      const body = JSON.stringify(platformReview(kind));
      const reply = await lambda.invoke(functionUrlEvent({ path: `/convert/${TOKEN}`, body }));
      expect(reply.statusCode).toBe(200);
      const { response } = JSON.parse(reply.body) as {
        response: { result: { status: string; message?: string }; convertedObjects?: unknown[] };
      };
      if (failure)
        expect([response.result.status, response.result.message]).toEqual(["Failure", expect.stringMatching(failure)]);
      else expect(response.result).toEqual(result);
      expect(response.convertedObjects).toEqual(objects);
    });
  }

  it("still converts in the same process after them all", async () => {
    const body = JSON.stringify(platformReview("Cached"));
    const reply = await lambda.invoke(functionUrlEvent({ path: `/convert/${TOKEN}`, body }));
    const { response } = JSON.parse(reply.body) as { response: { result: unknown; convertedObjects?: unknown[] } };
    expect(response).toMatchObject({ result: { status: "Success" }, convertedObjects: PLATFORM_CASES[0]!.objects });
  });

  it("logs the converters' failures as theirs (warn, converter-error), never as crdshift's internal error", async () => {
    const lines = () =>
      lambda.stderr
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line.slice(line.indexOf("{"))) as { level?: string; cause?: string });
    // The process's log lines travel a pipe of their own: they may arrive after its replies.
    const failing = PLATFORM_CASES.filter(
      ({ result, failure }) => failure ?? (result as { status: string }).status === "Failure",
    );
    await vi.waitFor(
      () => expect(lines().filter((line) => line.cause === "converter-error")).toHaveLength(failing.length),
      {
        timeout: 10_000,
      },
    );
    expect(lines().some((line) => line.cause === "internal-error" || line.level === "error")).toBe(false);
  });
});
