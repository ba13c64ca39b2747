import { describe, expect, it } from "vitest";
import { pruneLikeApiserver } from "../../../src/kube/crd/prune";
import type { OpenApiSchema } from "../../../src/kube/crd/schema";

const schema: OpenApiSchema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        host: { type: "string" },
        note: { type: "string", nullable: true },
        labels: { type: "object", additionalProperties: { type: "string" } },
        ports: { type: "array", items: { type: "object", properties: { port: { type: "integer" } } } },
        free: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          properties: { kept: { type: "object", properties: {} } },
        },
        anything: { "x-kubernetes-preserve-unknown-fields": true },
        template: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          properties: { spec: { type: "object", properties: { a: { type: "string" } } } },
        },
      },
    },
  },
};

describe("pruneLikeApiserver", () => {
  it("drops what the version does not declare, keeps the envelope and what preserves unknown fields", () => {
    const object = {
      apiVersion: "example.com/v1",
      kind: "Thing",
      metadata: { name: "a", annotations: { x: "y" } },
      stray: 1,
      spec: {
        host: "h",
        hostPort: "h:1",
        note: null,
        labels: { a: "b" },
        ports: [{ port: 1, name: "x" }],
        free: { whatever: [1], kept: { dropped: true } },
        anything: { deep: { er: 1 } },
        template: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { a: "b", c: "d" }, other: 1 },
      },
    };
    expect(pruneLikeApiserver(object, schema)).toEqual({
      apiVersion: "example.com/v1",
      kind: "Thing",
      metadata: { name: "a", annotations: { x: "y" } },
      spec: {
        host: "h",
        note: null,
        labels: { a: "b" },
        ports: [{ port: 1 }],
        free: { whatever: [1], kept: {} },
        anything: { deep: { er: 1 } },
        template: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { a: "b" } },
      },
    });
  });

  it("drops null where the schema does not allow it", () => {
    expect(pruneLikeApiserver({ spec: { host: null, note: null } }, schema)).toEqual({ spec: { note: null } });
  });

  it("copies a __proto__ key as data, without touching the prototype", () => {
    const object = JSON.parse('{"spec":{"labels":{"__proto__":"x"}}}') as unknown;
    const pruned = pruneLikeApiserver(object, schema) as { spec: { labels: Record<string, unknown> } };
    expect(Object.keys(pruned.spec.labels)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(pruned.spec.labels)).toBe(Object.prototype);
    expect(JSON.stringify(pruned)).toBe('{"spec":{"labels":{"__proto__":"x"}}}');
  });
});
