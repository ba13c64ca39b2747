import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createWorker } from "../../src/platforms/workers/workers";
import { PLATFORM_CASES, platformRegistry, platformReview } from "../conversion/converter-results";

// Inside workerd: a Worker built from a registry whose converters misbehave (a cached result,
// a deep-frozen one, a throwing getter, a throwing proxy) replies as the engine's test says.
const worker = createWorker(platformRegistry());
const url = "https://crdshift.test/convert/workers-test-token-0123456789?timeout=30s";

describe("in workerd, what a converter returns", () => {
  for (const { kind, result, objects } of PLATFORM_CASES) {
    it(`${kind}: the reply of the engine's test`, async () => {
      const request = new Request(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(platformReview(kind)),
      });
      const res = await worker.fetch(request, env as unknown as Record<string, unknown>, createExecutionContext());
      expect(res.status).toBe(200);
      const reply = (await res.json()) as { response: { result: unknown; convertedObjects?: unknown[] } };
      expect(reply.response.result).toEqual(result);
      expect(reply.response.convertedObjects).toEqual(objects);
    });
  }
});
