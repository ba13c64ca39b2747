import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { registry } from "../../examples";
import { createRegistry, defineKind } from "../../src/conversion";
import { convertFails, convertOk, cronTab, review, testApp } from "../helpers";

const stable = (version: string, name: string, spec: Record<string, unknown> | undefined) => ({
  apiVersion: `stable.example.com/${version}`,
  kind: "CronTab",
  metadata: { name, namespace: "default", uid: `uid-${name}`, labels: { app: "cron" } },
  ...(spec ? { spec } : {}),
});

describe("the KEP's CronTab (stable.example.com v1 <-> v2)", () => {
  const { app } = testApp();

  it("splits cronSpec into its five fields, keeping image and status", async () => {
    const object = {
      ...stable("v1", "my-new-cron-object", { cronSpec: "* * * * */5", image: "my-awesome-cron-image" }),
      status: { active: 1 },
    };
    const { reply } = await convertOk(app, review("stable.example.com/v2", [object]));
    expect(reply.response.convertedObjects[0]).toEqual({
      ...object,
      apiVersion: "stable.example.com/v2",
      spec: { image: "my-awesome-cron-image", min: "*", hour: "*", dayOfMonth: "*", month: "*", dayOfWeek: "*/5" },
    });
  });

  it("joins the five fields back", async () => {
    const object = stable("v2", "c", {
      min: "0",
      hour: "3",
      dayOfMonth: "*",
      month: "*",
      dayOfWeek: "1-5",
      image: "i",
    });
    const { reply } = await convertOk(app, review("stable.example.com/v1", [object], "apiextensions.k8s.io/v1beta1"));
    expect(reply.apiVersion).toBe("apiextensions.k8s.io/v1beta1");
    expect(reply.response.convertedObjects[0].spec).toEqual({ image: "i", cronSpec: "0 3 * * 1-5" });
  });

  it("fails the KEP's way on a cronSpec without five parts", async () => {
    const message = await convertFails(
      app,
      review("stable.example.com/v2", [stable("v1", "bad", { cronSpec: "* * *" })]),
    );
    expect(message).toBe(
      "object 0 (default/bad, uid uid-bad) CronTab stable.example.com/v1 -> stable.example.com/v2: invalid spec string, needs five parts: * * *",
    );
  });

  it("fails clearly when only some schedule fields are set", async () => {
    const message = await convertFails(
      app,
      review("stable.example.com/v1", [stable("v2", "half", { min: "0", hour: "1" })]),
    );
    expect(message).toMatch(
      /: spec\.dayOfMonth, spec\.month, spec\.dayOfWeek missing: all five schedule fields are needed to form spec\.cronSpec$/,
    );
  });

  it("converts objects without spec, or without the schedule", async () => {
    const { reply } = await convertOk(
      app,
      review("stable.example.com/v2", [stable("v1", "a", undefined), stable("v1", "b", { image: "i" })]),
    );
    expect(reply.response.convertedObjects.map((o: any) => o.spec)).toEqual([undefined, { image: "i" }]);
  });
});

describe("the docs page's CronTab (example.com v1alpha1 -> v1beta1 -> v1)", () => {
  const { app } = testApp();

  it("converts v1alpha1 to v1 in two steps, and back", async () => {
    const { reply } = await convertOk(
      app,
      review("example.com/v1", [cronTab("v1alpha1", "a", { endpoint: "db.local:5432" })]),
    );
    expect(reply.response.convertedObjects[0]).toEqual(cronTab("v1", "a", { host: "db.local", port: "5432" }));
    const back = await convertOk(
      app,
      review("example.com/v1alpha1", [cronTab("v1", "a", { host: "db.local", port: "5432" })]),
    );
    expect(back.reply.response.convertedObjects[0]).toEqual(cronTab("v1alpha1", "a", { endpoint: "db.local:5432" }));
  });

  it("names the step that failed in a two-step conversion", async () => {
    const message = await convertFails(
      app,
      review("example.com/v1", [cronTab("v1alpha1", "a", { endpoint: "nohost" })]),
    );
    expect(message).toBe(
      "object 0 (default/a, uid uid-a) CronTab example.com/v1alpha1 -> example.com/v1: hostPort could not be parsed into a separate host and port (in step v1beta1 -> v1)",
    );
  });

  it("serves both examples from one URL, in one request", async () => {
    const objects = [cronTab("v1beta1", "a", { hostPort: "h:1" })];
    await convertOk(app, review("example.com/v1", objects));
    await convertOk(app, review("stable.example.com/v2", [stable("v1", "s", { cronSpec: "1 2 3 4 5" })]));
  });
});

describe("fields named __proto__, constructor and prototype are data to both examples", () => {
  const { app } = testApp();
  // JSON.parse makes them own fields, as the webhook's parser does; a literal would set the prototype.
  const odd = () => JSON.parse('{"__proto__":"kept","constructor":{"__proto__":1},"prototype":[null]}');
  const docs: Record<string, Record<string, unknown>> = {
    v1alpha1: { endpoint: "h:1" },
    v1beta1: { hostPort: "h:1" },
    v1: { host: "h", port: "1", protocol: "TCP" },
  };
  const kep: Record<string, Record<string, unknown>> = {
    v1: { cronSpec: "1 2 3 4 5" },
    v2: { min: "1", hour: "2", dayOfMonth: "3", month: "4", dayOfWeek: "5" },
  };

  for (const [group, versions, build] of [
    ["example.com", docs, (v: string) => ({ ...cronTab(v, "odd", docs[v]!), ...odd() })],
    ["stable.example.com", kep, (v: string) => ({ ...stable(v, "odd", { ...kep[v], ...odd() }), ...odd() })],
  ] as const) {
    for (const from of Object.keys(versions)) {
      for (const to of Object.keys(versions)) {
        if (from === to) continue;
        it(`${group} ${from} -> ${to}`, async () => {
          const { objects } = await convertOk(app, review(`${group}/${to}`, [build(from)]));
          const converted = objects[0] as any;
          for (const where of group === "example.com" ? [converted] : [converted, converted.spec]) {
            expect(Object.getPrototypeOf(where)).toBe(Object.prototype);
            expect(
              Object.entries(where).filter(([key]) => ["__proto__", "constructor", "prototype"].includes(key)),
            ).toEqual(Object.entries(odd()));
          }
        });
      }
    }
  }
});

describe("a real request captured from a kube-apiserver (kube-rs fixture)", () => {
  const fixture = JSON.parse(readFileSync(new URL("../fixtures/kube-rs-simple-v1.json", import.meta.url), "utf8"));

  it("fails cleanly, naming the kind this webhook does not serve", async () => {
    const { app } = testApp();
    expect(await convertFails(app, fixture)).toBe(
      "object 0 (default/kek, uid af7e84e4-573e-4b6e-bb66-0ea578c740da) ConfigMapGenerator nullable.se/v2 -> nullable.se/v1: this webhook has no converters for ConfigMapGenerator in group nullable.se (it serves CronTab.example.com, CronTab.stable.example.com)",
    );
  });

  it("converts it once a converter for its kind is registered, keeping managedFields and annotations", async () => {
    const generator = defineKind({
      group: "nullable.se",
      kind: "ConfigMapGenerator",
      versions: {
        v1: z.looseObject({ spec: z.looseObject({ data: z.string().optional() }).optional() }),
        v2: z.looseObject({ spec: z.looseObject({ content: z.string().optional() }).optional() }),
      },
      converters: {
        v1: { v2: ({ spec, ...rest }) => ({ ...rest, spec: { content: spec?.data } }) },
        v2: { v1: ({ spec, ...rest }) => ({ ...rest, spec: { data: spec?.content } }) },
      },
    });
    const { app } = testApp({ registry: createRegistry([...registry.kinds, generator]) });
    const { reply } = await convertOk(app, fixture);
    const [object] = reply.response.convertedObjects;
    expect(object.apiVersion).toBe("nullable.se/v1");
    expect(object.spec).toEqual({ data: "x" });
    expect(object.metadata).toEqual(fixture.request.objects[0].metadata);
  });
});
