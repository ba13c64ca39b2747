import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { cronTabExample } from "../../examples/kinds/crontab.example.com";
import { cronTabStable } from "../../examples/kinds/crontab.stable.example.com";
import { createRegistry, defineKind } from "../../src/conversion";
import { post, review, testApp, wire } from "../helpers";

/** A kind whose converters misbehave on request: by the object's `mode` field. */
const flaky = defineKind({
  group: "flaky.example.com",
  kind: "Flaky",
  versions: {
    v1: z.looseObject({ mode: z.optional(z.string()) }),
    v2: z.looseObject({ mode: z.optional(z.string()) }),
  },
  converters: {
    v1: {
      v2: (object) => {
        if (object.mode === "throw") throw new Error("asked to throw");
        if (object.mode === "reject") return Promise.reject(new Error("asked to reject"));
        if (object.mode === "non-object") return 42 as never;
        if (object.mode === "busy") {
          const until = Date.now() + 120;
          while (Date.now() < until); // a long synchronous loop: JavaScript cannot interrupt it
          return object;
        }
        return new Promise((resolve) => setTimeout(() => resolve(object), Math.random() * 5));
      },
    },
    v2: { v1: (object) => object },
  },
});

const registry = createRegistry([cronTabExample, cronTabStable, flaky]);
const flakyObject = (name: string, mode: string) => ({
  apiVersion: "flaky.example.com/v1",
  kind: "Flaky",
  metadata: { name },
  mode,
});

async function message(app: ReturnType<typeof testApp>["app"], sent: ReturnType<typeof review>) {
  const res = await post(app, wire(sent));
  expect(res.status).toBe(200);
  return (await res.json()).response;
}

describe("faults in converters", () => {
  it("each misbehaviour is a clean Failure naming the object, and the next request is unaffected", async () => {
    const { app } = testApp({ registry });
    const expected: Record<string, string> = {
      throw: "asked to throw",
      reject: "asked to reject",
      "non-object": "the converter returned number, not an object",
    };
    for (const [mode, cause] of Object.entries(expected)) {
      const reply = await message(
        app,
        review("flaky.example.com/v2", [flakyObject("a", "fine"), flakyObject("b", mode)]),
      );
      expect(reply.result.message).toBe(`object 1 (b) Flaky flaky.example.com/v1 -> flaky.example.com/v2: ${cause}`);
      const next = await message(app, review("flaky.example.com/v2", [flakyObject("c", "fine")]));
      expect(next.result.status).toBe("Success");
    }
  });

  it("an object whose metadata no apiserver could have sent is refused by name, not passed on", async () => {
    const { app } = testApp({ registry });
    const odd = { ...flakyObject("odd", "fine"), metadata: { name: "odd", labels: { team: 7 } } };
    const reply = await message(app, review("flaky.example.com/v2", [odd]));
    expect(reply.result.message).toBe(
      'object 0 (odd) Flaky flaky.example.com/v1 -> flaky.example.com/v2: metadata.labels["team"] is a number, not a string',
    );
  });

  it("a long synchronous loop cannot be interrupted, but the budget ends the review right after it", async () => {
    const { app } = testApp({ registry, env: { CRDSHIFT_BUDGET_MS: "50" } });
    const reply = await message(
      app,
      review("flaky.example.com/v2", [flakyObject("a", "busy"), flakyObject("b", "fine")]),
    );
    expect(reply.result.message).toBe(
      "conversion budget of 50 ms exceeded after 1 of 2 objects (Flaky flaky.example.com/v1 -> flaky.example.com/v2)",
    );
  });

  it("interleaved concurrent reviews of different kinds, failing and not, never see each other's objects", async () => {
    const { app } = testApp({ registry });
    const cases = Array.from({ length: 60 }, (_, i) => {
      switch (i % 3) {
        case 0:
          return {
            sent: review("example.com/v1", [
              {
                apiVersion: "example.com/v1beta1",
                kind: "CronTab",
                metadata: { name: `ct-${i}` },
                hostPort: `h${i}:${i}`,
              },
            ]),
            check: (reply: any) =>
              expect(reply.convertedObjects).toEqual([
                {
                  apiVersion: "example.com/v1",
                  kind: "CronTab",
                  metadata: { name: `ct-${i}` },
                  host: `h${i}`,
                  port: String(i),
                },
              ]),
          };
        case 1:
          return {
            sent: review("stable.example.com/v2", [
              {
                apiVersion: "stable.example.com/v1",
                kind: "CronTab",
                metadata: { name: `st-${i}` },
                spec: { cronSpec: `${i} * * * *` },
              },
            ]),
            check: (reply: any) =>
              expect(reply.convertedObjects[0].spec).toEqual({
                min: String(i),
                hour: "*",
                dayOfMonth: "*",
                month: "*",
                dayOfWeek: "*",
              }),
          };
        default:
          return {
            sent: review("flaky.example.com/v2", [
              flakyObject(`fl-${i}`, "fine"),
              flakyObject(`bad-${i}`, i % 2 ? "reject" : "throw"),
            ]),
            check: (reply: any) => expect(reply.result.message).toMatch(new RegExp(`^object 1 \\(bad-${i}\\) `)),
          };
      }
    });
    const replies = await Promise.all(
      cases.map(({ sent }) => message(app, { ...sent, request: { ...sent.request, uid: `uid-${Math.random()}` } })),
    );
    for (const [i, reply] of replies.entries()) cases[i]!.check(reply);
  });
});
