import { describe, expect, it } from "vitest";
import type { OpenApiSchema } from "../../../src/kube/crd/schema";
import { firstViolation, matchesSchema } from "../../../src/kube/crd/value-check";

// The oracle the CRD arbitraries are held to: the apiserver's write-time checks, read from its
// validation code (kube-openapi's type validator: integral numbers are integers).
describe("matchesSchema", () => {
  it("checks types as the apiserver does", () => {
    expect(matchesSchema(1.0, { type: "integer" })).toBe(true);
    expect(matchesSchema(1.5, { type: "integer" })).toBe(false);
    // Kubernetes 1.36 keeps format int32 on an integer field and checks its range (formats.test.ts).
    expect(matchesSchema(2n ** 62n, { type: "integer", format: "int32" })).toBe(false);
    expect(matchesSchema(2n ** 62n, { type: "integer", format: "int64" })).toBe(true);
    expect(matchesSchema(2n ** 62n, { type: "number" })).toBe(true);
    expect(matchesSchema("3", { "x-kubernetes-int-or-string": true })).toBe(true);
    expect(matchesSchema(true, { "x-kubernetes-int-or-string": true })).toBe(false);
    expect(matchesSchema(null, { type: "string" })).toBe(false);
    expect(matchesSchema(null, { type: "string", nullable: true })).toBe(true);
    expect(matchesSchema({ a: [1] }, { "x-kubernetes-preserve-unknown-fields": true })).toBe(true);
  });

  it("checks value constraints, lengths in code points as Go counts runes", () => {
    const name: OpenApiSchema = { type: "string", maxLength: 2, pattern: "^[a-z😀]+$" };
    expect(matchesSchema("😀😀", name)).toBe(true);
    expect(matchesSchema("abc", name)).toBe(false);
    expect(matchesSchema("A", name)).toBe(false);
    expect(
      firstViolation(
        { spec: { port: 0 } },
        {
          type: "object",
          properties: {
            spec: { type: "object", properties: { port: { type: "integer", minimum: 0, exclusiveMinimum: true } } },
          },
        },
        "",
      ),
    ).toBe("spec.port: 0 is below the minimum 0 (exclusive)");
    expect(firstViolation({}, { type: "object", required: ["spec"] }, "")).toBe("spec: missing, but required");
  });

  it("names the value and what the schema asks: type, enum, list uniqueness", () => {
    expect(firstViolation("3", { type: "integer" }, "spec.replicas")).toBe(
      'spec.replicas: expected an integer, received "3"',
    );
    expect(firstViolation("always", { type: "string", enum: ["Always", "Never"] }, "spec.policy")).toBe(
      'spec.policy: "always" is not one of the enum values ["Always","Never"]',
    );
    expect(
      firstViolation(
        [{ name: "a" }, { name: "a" }],
        { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] },
        "spec.ports",
      ),
    ).toBe('spec.ports: [{"name":"a"},{"name":"a"}] has duplicate items (list-type map, keys name)');
    expect(firstViolation("x".repeat(500), { type: "string", maxLength: 3 }, "s")).toMatch(
      /^s: "x+\.\.\. \(\d+ more characters\) is longer than maxLength 3$/,
    );
  });

  it("checks the formats the apiserver checks, and no others", () => {
    const valid: Array<[string, string]> = [
      ["date-time", "2024-02-29T10:00:00Z"],
      ["date-time", "2024-02-29T10:00:00.123+02:00"],
      ["date-time", "2024-02-29t23:59:59z"],
      ["date", "2024-02-29"],
      ["duration", "1h30m"],
      ["duration", "3 days"],
      ["uuid", "123e4567-e89b-12d3-a456-426614174000"],
      ["ipv4", "10.0.0.1"],
      ["ipv6", "2001:db8::1"],
      ["ipv6", "::ffff:10.0.0.1"],
      ["cidr", "10.0.0.0/8"],
      ["cidr", "2001:db8::/32"],
      ["hostname", "example.com"],
      ["email", "a@example.com"],
      ["uri", "https://example.com/x"],
      ["byte", "aGVsbG8="],
      ["mac", "00:1a:2b:3c:4d:5e"],
      ["int32", "anything"],
      ["password", "anything"],
      ["no-such-format", "anything"],
    ];
    for (const [format, text] of valid)
      expect(firstViolation(text, { type: "string", format }, "f"), `${format} ${text}`).toBeUndefined();
    const invalid: Array<[string, string]> = [
      ["date-time", "2024-02-30T10:00:00Z"],
      ["date-time", "yesterday"],
      // What kube-openapi's date-time refuses: a date alone, a space, no seconds, no zone, 24:00.
      ["date-time", "2024-01-02"],
      ["date-time", "2024-01-02 10:00:00Z"],
      ["date-time", "2024-01-02T10:00Z"],
      ["date-time", "2024-01-02T10:00:00"],
      ["date-time", "2024-01-02T24:00:00Z"],
      ["date", "2023-02-29"],
      ["date", "2024-13-01"],
      ["duration", "soon"],
      ["uuid", "123"],
      ["ipv4", "10.0.0.256"],
      ["ipv6", "2001:db8:::1"],
      ["cidr", "10.0.0.0/33"],
      ["hostname", "-bad-.com"],
      ["email", "not an email"],
      ["uri", "no scheme"],
      ["byte", "***"],
      ["mac", "00:1a"],
    ];
    for (const [format, text] of invalid)
      expect(firstViolation(text, { type: "string", format }, "f"), `${format} ${text}`).toBe(
        `f: ${JSON.stringify(text)} is not a valid ${format}`,
      );
  });

  it("checks list maps' keys and sets for duplicates, and junctors", () => {
    const list: OpenApiSchema = {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      items: { type: "object" },
    };
    expect(
      matchesSchema(
        [
          { name: "a", x: 1 },
          { name: "a", x: 2 },
        ],
        list,
      ),
    ).toBe(false);
    expect(matchesSchema([{ name: "a" }, { name: "b" }], list)).toBe(true);
    expect(matchesSchema(["a", "a"], { type: "array", "x-kubernetes-list-type": "set" })).toBe(false);
    const one: OpenApiSchema = { type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }] };
    expect([{ a: 1 }, { b: 1 }, { a: 1, b: 1 }, {}].map((value) => matchesSchema(value, one))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(matchesSchema({ legacy: true }, { type: "object", not: { required: ["legacy"] } })).toBe(false);
  });
});
