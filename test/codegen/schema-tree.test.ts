import { describe, expect, it } from "vitest";
import { summaryOf, versionTree } from "../../src/codegen/schema-tree";

describe("the notes of a generated schema", () => {
  it("keep a description's first sentence, on one line", () => {
    expect(summaryOf("Spec is the desired state.\n  More detail follows.")).toBe("Spec is the desired state.");
  });

  it("clip a long text and say how much was left out, never halving a character", () => {
    const summary = summaryOf("😀".repeat(200))!;
    expect(summary).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(summary).toMatch(/\.\.\. \(\d+ more characters\)$/);
    const pattern = `^${"a".repeat(500)}$`;
    const tree = versionTree({ type: "object", properties: { a: { type: "string", pattern } } });
    const note = tree.type === "object" ? tree.fields[0]!.node.notes[0]! : "";
    expect(note).toMatch(/^pattern \^a+\.\.\. \(\d+ more characters\)$/);
    expect(note.length).toBeLessThan(200);
  });

  it("write an int64 bound, enum value or default beyond 2^53 as its exact digits", () => {
    const limit = {
      type: "integer",
      format: "int64",
      minimum: -9223372036854775808n,
      maximum: 9223372036854775807n,
      enum: [9007199254740993n, 1],
      default: 9007199254740993n,
      anyOf: [{ maximum: 9223372036854775806n }],
    };
    const tree = versionTree({ type: "object", properties: { limit } });
    const notes = tree.type === "object" ? tree.fields[0]!.node.notes : [];
    expect(notes).toEqual([
      "format int64",
      "one of 9007199254740993, 1",
      "default 9007199254740993",
      ">= -9223372036854775808",
      "<= 9223372036854775807",
      'anyOf {"maximum":9223372036854775806}',
    ]);
  });
});
