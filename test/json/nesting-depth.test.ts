import { describe, expect, it } from "vitest";
import { createRegistry } from "../../src/conversion";
import { post, testApp } from "../helpers";
import { counterKind, counterReview } from "./counter-review";

/**
 * How deep a body may nest: the apiserver's own limit by default, checked before anything is
 * converted, and below it nothing on the way (scan, parse, copy, print) recurses with the depth.
 */

const counter = counterKind("depth.example.com");

const body = (total: string, extra = "") => counterReview("depth.example.com", total, extra);

describe("the depth limit", () => {
  const { app } = testApp({ registry: createRegistry([counter]) });

  it("a body nested deeper than CRDSHIFT_MAX_DEPTH (10,000 by default, the apiserver's) is a clean 400, before any conversion", async () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const res = await post(app, body("1", `,"deep":${deep}`));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "body is nested 10005 levels deep, over the limit of 10000 (CRDSHIFT_MAX_DEPTH)",
    });
    // Brackets inside strings are text, not nesting.
    expect((await post(app, body("1", `,"text":${JSON.stringify(deep)}`))).status).toBe(200);
  });
});

describe("with the depth limit raised, every step below it stays iterative", () => {
  const { app } = testApp({ registry: createRegistry([counter]), env: { CRDSHIFT_MAX_DEPTH: "100000" } });
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

  it("deep nesting beside an int64 (the exact path) comes back unchanged", async () => {
    const res = await post(app, body("9007199254740993", `,"deep":${deep(20_000)}`));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`"spec":{"count":9007199254740993}`);
    expect(text).toContain(`"deep":${deep(20_000)}}`);
  });

  it("deep nesting inside metadata, which the engine copies for the converter, comes back unchanged", async () => {
    const text = body("1").replace(
      '"metadata":{"name":"c"}',
      `"metadata":{"name":"c","ownerReferences":${deep(50_000)}}`,
    );
    const res = await post(app, text);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`"metadata":{"name":"c","ownerReferences":${deep(50_000)}}`);
  });

  it("deep nesting on the fast path comes back unchanged", async () => {
    const res = await post(app, body("1", `,"deep":${deep(20_000)}`));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`,"deep":${deep(20_000)}}`);
  });
});
