import { describe, expect, it } from "vitest";
import { CrdReadError, readCrds } from "../../../src/kube/crd/crd-document";
import { MAX_SCHEMA_DEPTH, schemaRefusal } from "../../../src/kube/crd/schema-refusals";

function crdWithSpec(spec: object): string {
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "things.example.com" },
    spec: {
      group: "example.com",
      names: { kind: "Thing", plural: "things" },
      versions: [
        { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } },
        {
          name: "v2",
          served: true,
          storage: false,
          schema: { openAPIV3Schema: { type: "object", properties: { spec } } },
        },
      ],
    },
  });
}

function nested(levels: number): object {
  let schema: object = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { x: schema } };
  return schema;
}

describe("what the CRD reader refuses in a schema", () => {
  it("a pattern Go's regexp refuses, in the apiserver's words and at its field path", () => {
    const text = crdWithSpec({ type: "object", properties: { name: { type: "string", pattern: "^(?=a)a+$" } } });
    expect(() => readCrds(text, "things.json")).toThrow(CrdReadError);
    expect(() => readCrds(text, "things.json")).toThrow(
      'things.json: document 1 (things.example.com): spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[name].pattern: Invalid value: "^(?=a)a+$": must be a valid regular expression, but isn\'t: error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    );
    // Under items, a map's values and junctors too.
    const deepDown = crdWithSpec({
      type: "array",
      items: { type: "object", additionalProperties: { type: "string", anyOf: [{ pattern: "a{2000}" }] } },
    });
    expect(() => readCrds(deepDown, "x.json")).toThrow(
      "spec.versions[1].schema.openAPIV3Schema.properties[spec].items.additionalProperties.anyOf[0].pattern: Invalid value",
    );
  });

  it("a pattern RE2 accepts and JavaScript does not is read, not refused", () => {
    const text = crdWithSpec({ type: "string", pattern: "(?i)^\\pL+\\z" });
    expect(readCrds(text, "things.json")[0]!.versions[1]!.schema).toBeDefined();
  });

  it("a schema nested past the bound: one sentence naming where, never a stack overflow", () => {
    expect(readCrds(crdWithSpec(nested(MAX_SCHEMA_DEPTH - 3)), "ok.json")).toHaveLength(1);
    for (const levels of [MAX_SCHEMA_DEPTH, 1500, 2000]) {
      let error: unknown;
      try {
        readCrds(crdWithSpec(nested(levels)), "deep.json");
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(CrdReadError);
      const message = (error as Error).message;
      expect(message).toMatch(/^deep\.json: document 1 \(things\.example\.com\): spec\.versions\[1\]/);
      expect(message).toContain(`the schema nests more than ${MAX_SCHEMA_DEPTH} levels deep`);
      expect(message).not.toContain("\n");
      expect(message.length).toBeLessThan(600);
    }
  }, 60_000);

  it("walks a schema shared through aliases, or cyclic, without looping", () => {
    const shared = { type: "object", properties: {} as Record<string, object> };
    shared.properties.self = shared;
    expect(schemaRefusal(shared, "root")).toContain(`nests more than ${MAX_SCHEMA_DEPTH} levels deep`);
  });
});
