import { describe, expect, it } from "vitest";
import { registry } from "../../examples";
import { readConfig } from "../../src/server/config";
import { convertBody } from "../../src/conversion/convert-review";

const limits = readConfig({});

/** A review long enough for the engine to walk its parsed tree (over 20,000 characters). */
const body = JSON.stringify({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "ConversionReview",
  request: {
    uid: "u-1",
    desiredAPIVersion: "example.com/v1",
    objects: Array.from({ length: 60 }, (_, i) => ({
      apiVersion: "example.com/v1beta1",
      kind: "CronTab",
      metadata: { name: `c${i}`, namespace: "default", labels: { app: "x" }, annotations: { note: "y".repeat(300) } },
      spec: { cronSpec: "* * * * */5", nested: { deeper: [{ list: [1, 2, 3] }] } },
      hostPort: `h${i}:80`,
    })),
  },
});

describe("an Object.prototype polluted by other code in the process", () => {
  it("does not change a reply or keep the engine's walks from ending", async () => {
    const clean = await convertBody(registry, body, { limits });
    // A library may leave an enumerable name on Object.prototype: every object inherits it, the
    // object found there too, so a walk that followed inherited names would never end.
    let reads = 0;
    Object.defineProperty(Object.prototype, "polluted", {
      get() {
        if (++reads > 1000) throw new Error("a walk follows Object.prototype");
        return {};
      },
      enumerable: true,
      configurable: true,
    });
    let polluted: Awaited<ReturnType<typeof convertBody>>;
    try {
      polluted = await convertBody(registry, body, { limits });
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
    expect(clean.ok && clean.failure).toBe(undefined);
    expect(polluted.ok && polluted.text).toBe(clean.ok && clean.text);
  });
});
