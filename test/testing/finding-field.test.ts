import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { leadingPath, schemaField, violationPath, violationRule } from "../../src/check/finding-field";
import { type Finding, findingsText, SHOWN_FINDINGS } from "../../src/check/findings";

// Two failures are one finding when their field is the same as the schema names it: these are
// the names, so that a dropped map entry or list item is one finding, not one per generated key.
const crdSchema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        ports: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
        selector: { type: "object", additionalProperties: { type: "string" } },
        extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      },
    },
  },
};

describe("a finding's field", () => {
  it("names list items [] and map keys {} as the CRD's schema does, and what it does not name *", () => {
    expect(schemaField("spec.ports[3].name", crdSchema)).toBe("spec.ports[].name");
    expect(schemaField("spec.selector.app", crdSchema)).toBe("spec.selector{}");
    expect(schemaField('spec.selector["a.b/c"]', crdSchema)).toBe("spec.selector{}");
    expect(schemaField("spec.extra.anything.deeper", crdSchema)).toBe("spec.extra.*");
    expect(schemaField("metadata.labels.team", crdSchema)).toBe("metadata.labels{}");
    expect(schemaField("metadata.name", crdSchema)).toBe("metadata.name");
    expect(schemaField("the object", crdSchema)).toBe("the object");
  });

  it("reads a zod schema the same way, through optional and union wrappers", () => {
    const schema = z.looseObject({
      spec: z.optional(
        z.looseObject({
          ports: z.optional(z.array(z.looseObject({ name: z.string() }))),
          labels: z.optional(z.record(z.string(), z.string())),
          total: z.optional(z.union([z.number(), z.bigint()])),
        }),
      ),
    });
    expect(schemaField("spec.ports[0].name", schema)).toBe("spec.ports[].name");
    expect(schemaField("spec.labels.x", schema)).toBe("spec.labels{}");
    expect(schemaField("spec.unknownField", schema)).toBe("spec.*");
    expect(schemaField("spec.ports[1]", undefined)).toBe("spec.ports[]");
  });

  it("takes the path and the rule of a violation's words, values left out", () => {
    const text = 'spec["a: b"][2].mode: "Large" is not one of the enum values ["Small"]';
    expect(violationPath(text)).toBe('spec["a: b"][2].mode');
    expect(violationRule(text)).toBe("… is not one of the enum values …");
    expect(leadingPath('spec.ports[0] was {"name":"a"}, came back missing')).toBe("spec.ports[0]");
    expect(leadingPath("the object had 2 items")).toBe("the object");
  });
});

describe("the findings' words", () => {
  const finding = (i: number): Finding => ({
    place: "v1 -> v2 -> v1",
    rule: "not the same after the round trip",
    field: `spec.f${i}`,
    message: `spec.f${i} was 1, came back missing`,
    object: { spec: { [`f${i}`]: 1 } },
    partial: false,
    count: 1,
    rank: 3,
    seed: 1,
  });

  it("shows the first few in full, the rest a line each, and counts them all", () => {
    const findings = Array.from({ length: SHOWN_FINDINGS + 2 }, (_, i) => finding(i));
    const text = findingsText("Pump.example.com", findings, (f) => `FULL ${f.message}`);
    expect(text.match(/^FULL /gm)).toHaveLength(SHOWN_FINDINGS);
    expect(text).toContain(
      `\n\nPump.example.com: ${SHOWN_FINDINGS + 2} findings, the first ${SHOWN_FINDINGS} above in full:\n  v1 -> v2 -> v1: not the same after the round trip (spec.f${SHOWN_FINDINGS}), 1 object(s)\n`,
    );
    expect(findingsText("Pump.example.com", [finding(0)], (f) => f.message)).toBe(
      "spec.f0 was 1, came back missing\n\nPump.example.com: 1 finding",
    );
  });
});
