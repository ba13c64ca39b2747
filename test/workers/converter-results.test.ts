import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createWorker } from "../../src/platforms/workers/workers";
import { PLATFORM_CASES, platformRegistry, platformReview } from "../conversion/converter-results";

// Inside workerd: a Worker built from a registry whose converters misbehave (a cached result,
// a deep-frozen one, a throwing getter, a throwing proxy, a list of 2e8 holes, shared objects
// 2^24 paths deep, a throw of what cannot be printed) replies as the engine's test says, one
// review after another in the same isolate.
const worker = createWorker(platformRegistry());
const url = "https://crdshift.test/convert/workers-test-token-0123456789?timeout=30s";

async function post(kind: string): Promise<Response> {
  const request = new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(platformReview(kind)),
  });
  return worker.fetch(request, env as unknown as Record<string, unknown>, createExecutionContext());
}

describe("in workerd, what a converter returns", () => {
  for (const { kind, result, failure, objects } of PLATFORM_CASES) {
    it(`${kind}: the reply of the engine's test`, async () => {
      const res = await post(kind);
      expect(res.status).toBe(200);
      const reply = (await res.json()) as {
        response: { result: { status: string; message?: string }; convertedObjects?: unknown[] };
      };
      const { status, message } = reply.response.result;
      if (failure) expect([status, message]).toEqual(["Failure", expect.stringMatching(failure)]);
      else expect(reply.response.result).toEqual(result);
      expect(reply.response.convertedObjects).toEqual(objects);
    });
  }

  it("still converts in the same isolate after them all", async () => {
    const reply = (await (await post("Cached")).json()) as { response: unknown };
    expect(reply.response).toMatchObject({
      result: { status: "Success" },
      convertedObjects: PLATFORM_CASES[0]!.objects,
    });
  });
});
