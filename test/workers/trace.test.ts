import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { createWorker } from "crdshift/workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registry } from "../../examples";
import docsV1 from "../../examples/requests/docs-v1.json";
import { registry as dropsPort } from "../fixtures/port-dropping-registry";

// Inside workerd: the apiserver's trace ids and the Ray ID in a review's log lines.

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TRACE = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };

async function logged(headers: Record<string, string>, env: Record<string, string>, shadow = false) {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(JSON.parse(String(line))));
  const worker = createWorker(registry, shadow ? { shadow: dropsPort } : {});
  const ctx = createExecutionContext();
  const request = new Request("https://crdshift.test/convert", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(docsV1),
  });
  const res = await worker.fetch(request, env, ctx);
  expect(res.status).toBe(200);
  await waitOnExecutionContext(ctx);
  return lines;
}

afterEach(() => vi.restoreAllMocks());

describe("in workerd, a review's log line", () => {
  it("carries the trace and span ids of its traceparent, and the request's Ray ID", async () => {
    const lines = await logged(
      { traceparent: TRACEPARENT, "cf-ray": "8f1a2b3c4d5e6f70-SJC" },
      { CRDSHIFT_LOG_REVIEWS: "all" },
    );
    expect(lines.filter((line) => line.msg === "review converted")).toEqual([
      expect.objectContaining({ result: "success", ...TRACE, cfRay: "8f1a2b3c4d5e6f70-SJC" }),
    ]);
  });

  it("carries neither from malformed headers, nor repeats them", async () => {
    const lines = await logged(
      { traceparent: `${TRACEPARENT.toUpperCase()}`, "cf-ray": "<img src=x>" },
      { CRDSHIFT_LOG_REVIEWS: "all" },
    );
    const [line] = lines.filter((record) => record.msg === "review converted");
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty("traceId");
    expect(line).not.toHaveProperty("cfRay");
    expect(JSON.stringify(lines)).not.toMatch(/4BF92F|img/);
  });

  it("and its shadow's lines carry the same ids", async () => {
    const lines = await logged({ traceparent: TRACEPARENT }, { CRDSHIFT_SHADOW_SAMPLE: "1" }, true);
    const differences = lines.filter((line) => line.msg === "shadow difference");
    expect(differences).toHaveLength(2);
    for (const line of differences) expect(line).toMatchObject(TRACE);
  });
});
