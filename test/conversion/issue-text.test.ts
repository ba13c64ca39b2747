import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import * as core from "zod/v4/core";
import { issueText } from "../../src/conversion/issue-text";
import { schemaIssue } from "../../src/conversion/validate";

const spec = z.looseObject({
  spec: z.optional(
    z.looseObject({
      replicas: z.optional(z.number()),
      policy: z.optional(z.enum(["Always", "Never"])),
      name: z.optional(z.string().check(z.maxLength(3))),
      ports: z.optional(z.array(z.looseObject({ port: z.number() }))),
    }),
  ),
});

function first(value: unknown, values: boolean): string {
  const result = core.safeParse(spec, value);
  if (result.success) throw new Error("expected a failure");
  return issueText(result.error.issues[0]!, value, values);
}

describe("schema issues name what was expected and what was received", () => {
  it("in the webhook: the type received, never the value (logs hold no object contents)", () => {
    expect(schemaIssue(spec, { spec: { replicas: "3" } })).toBe("spec.replicas: expected number, received string");
    expect(schemaIssue(spec, { spec: { policy: "always" } })).toBe(
      'spec.policy: expected one of "Always", "Never", received string',
    );
    expect(schemaIssue(spec, { spec: { ports: [{}] } })).toBe("spec.ports[0].port: expected number, received nothing");
    expect(schemaIssue(spec, { spec: 3 })).not.toContain("Invalid input");
  });

  it("in the test kit and the CLI: the value too, clipped", () => {
    expect(first({ spec: { replicas: "3" } }, true)).toBe('spec.replicas: expected number, received string ("3")');
    expect(first({ spec: { name: "abcdef" } }, true)).toBe(
      'spec.name: string ("abcdef"), above the maximum 3 characters',
    );
    expect(first({ spec: { replicas: "x".repeat(500) } }, true)).toMatch(
      /^spec\.replicas: expected number, received string \("x+\.\.\. \(\d+ more characters\)\)$/,
    );
  });

  it("keeps a message the schema's author wrote", () => {
    const custom = z.looseObject({ size: z.number({ error: "size must be a number of bytes" }) });
    expect(schemaIssue(custom, { size: "1" })).toBe(
      "size: size must be a number of bytes (expected number, received string)",
    );
  });
});
