import { afterEach, describe, expect, it, vi } from "vitest";
import { registry } from "../../examples";
import { type AppOptions, createWebhook } from "../../src/server/app";
import { ConfigError, readConfig, WORKERS_DEFAULTS } from "../../src/server/config";
import type { LogRecord } from "../../src/log";
import { noMetrics } from "../../src/metrics/metrics";
import { cronTab, review, wire } from "../helpers";

// CRDSHIFT_MAX_BYTES_IN_FLIGHT in the app (every platform's route): what a review holds, that it
// gives it back however it ends, and what a request finds when the cap is full.

const REVIEW = wire(review("example.com/v1", [cronTab("v1beta1", "a", { hostPort: "h:1" })]));
const FAILING = wire(review("example.com/v9", [cronTab("v1beta1", "a", { hostPort: "h:1" })]));
const encoder = new TextEncoder();

function webhook(env: Record<string, string> = {}, options: Partial<AppOptions> = {}) {
  const logs: LogRecord[] = [];
  const made = createWebhook({ registry, config: readConfig(env), log: (r) => logs.push(r), ...options });
  return { ...made, logs };
}

/** A body fed by hand: `push` a part, then `end` or `fail`. */
function handFed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    body,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    fail: () => controller.error(new Error("aborted")),
  };
}

/** A review request, with its length declared (as the apiserver sends it) or streamed. */
function request(body: string | ReadableStream<Uint8Array>, length: number | "streamed") {
  return new Request("http://crdshift.test/convert?timeout=30s", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(length === "streamed" ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(length) }),
    },
    body,
    duplex: "half",
  } as RequestInit);
}

const bytes = (text: string) => encoder.encode(text).length;

afterEach(() => vi.useRealTimers());

describe("bytes in flight: what a review holds", () => {
  it("holds a review's declared length from before its body is read until its reply, then nothing", async () => {
    const { app, inFlight } = webhook();
    const fed = handFed();
    const answered = app.request(request(fed.body, bytes(REVIEW)));
    await vi.waitFor(() => expect(inFlight.heldBytes).toBe(bytes(REVIEW)));
    fed.push(REVIEW);
    fed.end();
    expect((await answered).status).toBe(200);
    expect(inFlight.heldBytes).toBe(0);
  });

  it("counts a body without a length as it streams in", async () => {
    const { app, inFlight } = webhook();
    const fed = handFed();
    const answered = app.request(request(fed.body, "streamed"));
    fed.push(REVIEW.slice(0, 100));
    await vi.waitFor(() => expect(inFlight.heldBytes).toBe(100));
    fed.push(REVIEW.slice(100));
    fed.end();
    expect((await answered).status).toBe(200);
    expect(inFlight.heldBytes).toBe(0);
  });

  const endings: Array<[string, () => Request, number, Partial<AppOptions>?]> = [
    ["a review converted", () => request(REVIEW, bytes(REVIEW)), 200],
    ["a review that fails", () => request(FAILING, bytes(FAILING)), 200],
    ["a body that is not JSON", () => request("{", 1), 400],
    ["a streamed review", () => request(REVIEW, "streamed"), 200],
    [
      "an exception of ours (a metrics sink that throws)",
      () => request(REVIEW, bytes(REVIEW)),
      500,
      {
        metrics: {
          ...noMetrics,
          review() {
            throw new Error("sink broke");
          },
        },
        log: () => {},
      },
    ],
  ];
  for (const [name, make, status, options] of endings) {
    it(`gives every byte back after ${name} (${status})`, async () => {
      const { app, inFlight } = webhook({ CRDSHIFT_LOG_REVIEWS: "all" }, options);
      expect((await app.request(make())).status).toBe(status);
      expect(inFlight.heldBytes).toBe(0);
    });
  }

  for (const length of [bytes(REVIEW), "streamed"] as const) {
    it(`gives every byte back after an upload that breaks off (${length === "streamed" ? "streamed" : "declared length"})`, async () => {
      const { app, inFlight } = webhook();
      const fed = handFed();
      const answered = app.request(request(fed.body, length));
      fed.push(REVIEW.slice(0, 50));
      await vi.waitFor(() => expect(inFlight.heldBytes).toBeGreaterThan(0));
      fed.fail();
      expect((await answered).status).toBe(400);
      expect(inFlight.heldBytes).toBe(0);
    });
  }
});

describe("bytes in flight: when the cap is full", () => {
  const env = { CRDSHIFT_BODY_LIMIT_BYTES: "4096", CRDSHIFT_MAX_BYTES_IN_FLIGHT: "4096" };

  it("lets a review wait its turn, while /healthz answers, and converts it once there is room", async () => {
    const { app, inFlight } = webhook(env);
    const held = inFlight.tryReserve(4096)!;
    const answered = app.request(request(REVIEW, bytes(REVIEW)));
    await vi.waitFor(() => expect(inFlight.waitingCount).toBe(1));
    const health = await app.request("http://crdshift.test/healthz");
    expect(health.status).toBe(200);
    held.release();
    const res = await answered;
    expect(res.status).toBe(200);
    expect(inFlight.heldBytes).toBe(0);
  });

  it("answers 429 with Retry-After, naming the setting, to a review that found no room in time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { app, inFlight, logs } = webhook(env);
    const held = inFlight.tryReserve(4096)!;
    const answered = app.request(request(REVIEW, bytes(REVIEW)));
    await vi.waitFor(() => expect(inFlight.waitingCount).toBe(1));
    await vi.advanceTimersByTimeAsync(10_000);
    const res = await answered;
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({
      error: "too many request bytes are being converted at once (CRDSHIFT_MAX_BYTES_IN_FLIGHT): retry after 1 s",
    });
    expect(logs).toContainEqual(expect.objectContaining({ status: 429, reason: "busy" }));
    held.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("waits at most half a short budget, leaving the rest for the review", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { app, inFlight } = webhook({ ...env, CRDSHIFT_BUDGET_MS: "4000" });
    const held = inFlight.tryReserve(4096)!;
    let status = 0;
    const answered = Promise.resolve(app.request(request(REVIEW, bytes(REVIEW)))).then((res) => (status = res.status));
    await vi.waitFor(() => expect(inFlight.waitingCount).toBe(1));
    // (vi.waitFor moves fake timers on a little too.)
    await vi.advanceTimersByTimeAsync(1500);
    expect(status).toBe(0);
    await vi.advanceTimersByTimeAsync(500);
    await answered;
    expect(status).toBe(429);
    held.release();
  });

  it("answers 429 at once to a streamed body that would pass the cap, and holds none of it after", async () => {
    const { app, inFlight } = webhook(env);
    const held = inFlight.tryReserve(4096 - 100)!;
    const res = await app.request(request(REVIEW, "streamed"));
    expect(res.status).toBe(429);
    held.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("answers 413 naming the setting to a streamed body over the limit", async () => {
    const { app, inFlight } = webhook(env);
    const res = await app.request(request(`${REVIEW}${" ".repeat(5000)}`, "streamed"));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: "request body is larger than the limit of 4096 bytes (CRDSHIFT_BODY_LIMIT_BYTES)",
    });
    expect(inFlight.heldBytes).toBe(0);
  });
});

describe("bytes in flight: the setting", () => {
  it("must leave room for the largest body", () => {
    expect(() => readConfig({ CRDSHIFT_BODY_LIMIT_BYTES: "2000", CRDSHIFT_MAX_BYTES_IN_FLIGHT: "1000" })).toThrow(
      ConfigError,
    );
    expect(
      readConfig({ CRDSHIFT_BODY_LIMIT_BYTES: "2000", CRDSHIFT_MAX_BYTES_IN_FLIGHT: "2000" }).maxBytesInFlight,
    ).toBe(2000);
  });

  it("defaults to the platform's, or to the body limit where that is larger", () => {
    expect(readConfig({}).maxBytesInFlight).toBe(64 * 2 ** 20);
    expect(readConfig({}, WORKERS_DEFAULTS)).toMatchObject({
      bodyLimitBytes: 8 * 2 ** 20,
      maxBytesInFlight: 8 * 2 ** 20,
    });
    expect(readConfig({ CRDSHIFT_BODY_LIMIT_BYTES: String(100 * 2 ** 20) }).maxBytesInFlight).toBe(100 * 2 ** 20);
  });
});
