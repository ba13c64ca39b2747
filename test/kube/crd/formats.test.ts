import { describe, expect, it } from "vitest";
import { firstViolation, matchesSchema } from "../../../src/kube/crd/value-check";

// Kubernetes 1.36 keeps int32/int64 on integer fields and float/double on number fields, and
// kube-openapi's validator checks the value's range (kubernetes#136582, fixing #136091).
describe("numeric formats as Kubernetes 1.36 checks them", () => {
  it("int32: -2^31 to 2^31-1 on an integer field", () => {
    const int32 = { type: "integer", format: "int32" };
    expect(matchesSchema(2147483647, int32)).toBe(true);
    expect(matchesSchema(-2147483648, int32)).toBe(true);
    expect(matchesSchema(2147483648, int32)).toBe(false);
    expect(matchesSchema(-2147483649, int32)).toBe(false);
    expect(matchesSchema(2n ** 62n, int32)).toBe(false);
    expect(firstViolation({ replicas: 2147483648 }, { type: "object", properties: { replicas: int32 } }, "spec")).toBe(
      "spec.replicas: 2147483648 is out of range for format int32 (-2147483648 to 2147483647)",
    );
  });

  it("int64: the whole int64 range, exactly beyond 2^53", () => {
    const int64 = { type: "integer", format: "int64" };
    expect(matchesSchema(2n ** 63n - 1n, int64)).toBe(true);
    expect(matchesSchema(-(2n ** 63n), int64)).toBe(true);
    expect(matchesSchema(2n ** 63n, int64)).toBe(false);
    expect(matchesSchema(-(2n ** 63n) - 1n, int64)).toBe(false);
  });

  it("float: a magnitude a 32-bit float holds; double: any finite number", () => {
    const float = { type: "number", format: "float" };
    expect(matchesSchema(3.4e38, float)).toBe(true);
    expect(matchesSchema(-3.4028234663852886e38, float)).toBe(true);
    expect(matchesSchema(3.5e38, float)).toBe(false);
    expect(matchesSchema(-1e300, float)).toBe(false);
    expect(matchesSchema(1.5, float)).toBe(true);
    expect(matchesSchema(1e300, { type: "number", format: "double" })).toBe(true);
    expect(firstViolation(3.5e38, float, "spec.ratio")).toContain("is out of range for format float");
  });

  it("each format on its own type only: the apiserver strips the others and checks nothing", () => {
    expect(matchesSchema(2147483648, { type: "number", format: "int32" })).toBe(true);
    expect(matchesSchema(2n ** 40n, { type: "integer", format: "float" })).toBe(true);
    expect(matchesSchema(2147483648, { type: "integer", format: "int" })).toBe(true);
  });
});
