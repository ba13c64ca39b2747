import { describe, expect, it } from "vitest";
import type { OpenApiSchema } from "../../src/kube/crd/schema";
import { checkCelRules } from "../../src/check/cel-check";

const rule = (text: string, message?: string) => ({
  "x-kubernetes-validations": [{ rule: text, ...(message ? { message } : {}) }],
});

describe("CEL rules, evaluated as the apiserver evaluates them on a write", () => {
  it("passes a value that keeps the rule, names the place, rule and message of one that breaks it", () => {
    const schema: OpenApiSchema = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          ...rule("self.size <= 100 || self.mode == 'Large'", "large sizes need mode Large"),
          properties: { size: { type: "integer" }, mode: { type: "string" } },
        },
      },
    };
    expect(checkCelRules({ spec: { size: 5, mode: "Small" } }, schema)).toEqual({ errors: [] });
    expect(checkCelRules({ spec: { size: 500, mode: "Small" } }, schema).violation).toBe(
      "spec: breaks the CEL rule self.size <= 100 || self.mode == 'Large' (large sizes need mode Large)",
    );
  });

  it("gives integers as int and numbers as double, so arithmetic types as in Kubernetes", () => {
    const schema: OpenApiSchema = {
      type: "object",
      ...rule("self.count + 1 > 1 && self.ratio * 2.0 > 0.0"),
      properties: { count: { type: "integer" }, ratio: { type: "number" } },
    };
    expect(checkCelRules({ count: 1, ratio: 3 }, schema)).toEqual({ errors: [] });
    expect(checkCelRules({ count: 2n ** 60n, ratio: 0.5 }, schema)).toEqual({ errors: [] });
  });

  it("escapes property names CEL cannot spell, and applies defaults first", () => {
    const schema: OpenApiSchema = {
      type: "object",
      ...rule("self.__namespace__ == 'a' && self.x__dash__y == 1 && self.kind == 'Pod'"),
      properties: {
        namespace: { type: "string" },
        "x-y": { type: "integer" },
        kind: { type: "string", default: "Pod" },
      },
    };
    expect(checkCelRules({ namespace: "a", "x-y": 1 }, schema)).toEqual({ errors: [] });
  });

  it("evaluates rules at every list item and map value", () => {
    const schema: OpenApiSchema = {
      type: "object",
      properties: {
        ports: {
          type: "array",
          items: { type: "object", ...rule("self.port > 0"), properties: { port: { type: "integer" } } },
        },
      },
    };
    expect(checkCelRules({ ports: [{ port: 1 }, { port: 0 }] }, schema).violation).toBe(
      "ports[1]: breaks the CEL rule self.port > 0",
    );
  });

  it("skips transition rules, and reports rules it cannot evaluate rather than pass them", () => {
    const schema: OpenApiSchema = {
      type: "object",
      "x-kubernetes-validations": [{ rule: "self == oldSelf" }, { rule: "self.items.isSorted()" }],
      properties: { items: { type: "array", items: { type: "integer" } } },
    };
    const outcome = checkCelRules({ items: [2, 1] }, schema);
    expect(outcome.violation).toBeUndefined();
    expect(outcome.errors).toEqual([
      { path: "the object", rule: "self.items.isSorted()", reason: expect.stringMatching(/^evaluation failed: /) },
    ]);
  });
});
