import { afterEach, describe, expect, it, vi } from "vitest";
import { registry } from "../../examples";
import { type AppOptions, createWebhook } from "../../src/server/app";
import { ConfigError, readConfig, WORKERS_DEFAULTS } from "../../src/server/config";
import type { LogRecord } from "../../src/log";
import { noMetrics } from "../../src/metrics/metrics";
import { cronTab, review, wire } from "../helpers";
import * as z from "zod/mini";
import { createRegistry, defineKind, heldAtLeast, heldBeforeRead } from "../../src/conversion";
import { heldByShape } from "../../src/conversion/held-memory";
import { scanBody } from "../../src/json";

// CRDSHIFT_MAX_BYTES_IN_FLIGHT in the app (every platform's route): the memory a review holds,
// counted from its length and then from its body's shape, that it gives it back however it
// ends, and what a request finds when the cap is full.

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
  it("holds what a body of its declared length may hold from before it is read until its reply, then nothing", async () => {
    const { app, inFlight } = webhook();
    const fed = handFed();
    const answered = app.request(request(fed.body, bytes(REVIEW)));
    const held = heldBeforeRead(bytes(REVIEW), readConfig({}));
    // A short body is parsed whole: it is counted as the densest body of its length, far more than its bytes.
    expect(held).toBeGreaterThan(20 * bytes(REVIEW));
    await vi.waitFor(() => expect(inFlight.heldBytes).toBe(held));
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
    await vi.waitFor(() => expect(inFlight.heldBytes).toBe(heldAtLeast(100)));
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
  const CAP = heldAtLeast(4096);
  const env = { CRDSHIFT_BODY_LIMIT_BYTES: "4096", CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(CAP) };

  it("lets a review wait its turn, while /healthz answers, and converts it once there is room", async () => {
    const { app, inFlight } = webhook(env);
    const held = inFlight.tryReserve(CAP)!;
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
    const held = inFlight.tryReserve(CAP)!;
    const answered = app.request(request(REVIEW, bytes(REVIEW)));
    await vi.waitFor(() => expect(inFlight.waitingCount).toBe(1));
    await vi.advanceTimersByTimeAsync(10_000);
    const res = await answered;
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({
      error:
        "too much memory is held by reviews being converted at once (CRDSHIFT_MAX_BYTES_IN_FLIGHT): retry after 1 s",
    });
    expect(logs).toContainEqual(expect.objectContaining({ status: 429, reason: "busy" }));
    held.release();
    expect(inFlight.heldBytes).toBe(0);
  });

  it("waits at most half a short budget, leaving the rest for the review", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { app, inFlight } = webhook({ ...env, CRDSHIFT_BUDGET_MS: "4000" });
    const held = inFlight.tryReserve(CAP)!;
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
    const held = inFlight.tryReserve(CAP - heldAtLeast(100))!;
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
  it("must leave room for the least a body of the largest size holds", () => {
    const least = heldAtLeast(2000);
    expect(least).toBeGreaterThan(2000);
    expect(() =>
      readConfig({ CRDSHIFT_BODY_LIMIT_BYTES: "2000", CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(least - 1) }),
    ).toThrow(ConfigError);
    expect(
      readConfig({ CRDSHIFT_BODY_LIMIT_BYTES: "2000", CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(least) }).maxBytesInFlight,
    ).toBe(least);
  });

  it("defaults to the platform's, or to what the largest body holds at least where that is larger", () => {
    expect(readConfig({}).maxBytesInFlight).toBe(256 * 2 ** 20);
    expect(readConfig({}, WORKERS_DEFAULTS)).toMatchObject({
      bodyLimitBytes: 8 * 2 ** 20,
      maxBytesInFlight: 80 * 2 ** 20,
    });
    expect(readConfig({ CRDSHIFT_BODY_LIMIT_BYTES: String(100 * 2 ** 20) }).maxBytesInFlight).toBe(
      heldAtLeast(100 * 2 ** 20),
    );
  });
});

describe("bytes in flight: what a body holds, not what it weighs", () => {
  // Bodies of a few kB, scanned before they are parsed as large ones are (over a third of the
  // object size limit), each object within that limit.
  const LIMITS = { CRDSHIFT_BODY_LIMIT_BYTES: "16384", CRDSHIFT_MAX_OBJECT_BYTES: "8192" };
  const dense = (name: string) => cronTab("v1beta1", name, { hostPort: "h:1", spec: { items: Array(1000).fill({}) } });
  const DENSE = wire(review("example.com/v1", [dense("a"), dense("b")]));
  const realistic = Array.from({ length: 31 }, (_, i) =>
    cronTab("v1beta1", `c${i}`, {
      hostPort: "db.payments.svc:5432",
      spec: { schedule: "*/5 * * * *", image: "busybox" },
    }),
  );
  const REALISTIC = wire(review("example.com/v1", realistic));
  const heldBy = (text: string) => heldByShape(text.length, scanBody(text));

  it("counts a dense body as holding many times a realistic one of its size", () => {
    expect(bytes(DENSE)).toBeGreaterThan(8192 / 3);
    expect(Math.abs(bytes(REALISTIC) - bytes(DENSE))).toBeLessThan(bytes(DENSE) / 4);
    expect(heldBy(DENSE)).toBeGreaterThan(3 * heldBy(REALISTIC));
  });

  it("fails a review that would hold more than the cap with review-too-large, naming the setting, and converts a realistic one of its size", async () => {
    const cap = Math.floor((heldBy(DENSE) + heldBy(REALISTIC)) / 2);
    const { app, inFlight, logs } = webhook({ ...LIMITS, CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(cap) });
    const res = await app.request(request(DENSE, bytes(DENSE)));
    expect(res.status).toBe(200);
    const { response } = await res.json();
    expect(response.result.status).toBe("Failure");
    expect(response.result.message).toMatch(/CRDSHIFT_MAX_BYTES_IN_FLIGHT/);
    expect(response.convertedObjects).toBeUndefined();
    expect(logs).toContainEqual(expect.objectContaining({ code: "review-too-large", cause: "review-too-large" }));
    expect(inFlight.heldBytes).toBe(0);
    const converted = await app.request(request(REALISTIC, bytes(REALISTIC)));
    expect((await converted.json()).response.result.status).toBe("Success");
    expect(inFlight.heldBytes).toBe(0);
  });

  it("lets a body that turns out to hold more than the room left wait for it, ahead of the line, and converts it once there is room", async () => {
    const cap = 2 * heldBy(DENSE);
    const { app, inFlight } = webhook({ ...LIMITS, CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(cap) });
    // Room for the body's length, not for what it holds.
    const other = inFlight.tryReserve(cap - heldBy(DENSE) / 2)!;
    // Whether a request of one byte would be turned away, though the room is there for it.
    const aheadOfTheLine = () => {
      const lease = inFlight.tryReserve(1);
      lease?.release();
      return lease === undefined;
    };
    expect(aheadOfTheLine()).toBe(false);
    const answered = app.request(request(DENSE, bytes(DENSE)));
    await vi.waitFor(() => expect(aheadOfTheLine()).toBe(true));
    other.release();
    const reply = await answered;
    expect(reply.status).toBe(200);
    expect((await reply.json()).response.result.status).toBe("Success");
    expect(inFlight.heldBytes).toBe(0);
  });

  it("holds what the body's shape says while it converts, and /healthz answers meanwhile", async () => {
    let release!: () => void;
    const converting = new Promise<void>((resolve) => (release = resolve));
    let seen = -1;
    const loose = z.looseObject({});
    const slow = createRegistry([
      defineKind({
        group: "example.com",
        kind: "CronTab",
        versions: { v1beta1: loose, v1: loose },
        converters: {
          v1beta1: {
            v1: async (object) => {
              seen = made.inFlight.heldBytes;
              await converting;
              return object;
            },
          },
          v1: { v1beta1: (object) => object },
        },
      }),
    ]);
    const made = createWebhook({ registry: slow, config: readConfig(LIMITS), log: () => {} });
    const answered = made.app.request(request(DENSE, bytes(DENSE)));
    await vi.waitFor(() => expect(seen).toBeGreaterThanOrEqual(0));
    expect(seen).toBe(heldBy(DENSE));
    expect(seen).toBeGreaterThan(20 * bytes(DENSE));
    expect((await made.app.request("http://crdshift.test/healthz")).status).toBe(200);
    release();
    expect((await (await answered).json()).response.result.status).toBe("Success");
    expect(made.inFlight.heldBytes).toBe(0);
  });
});
