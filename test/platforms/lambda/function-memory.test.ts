import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/server";
import { functionMemoryCap } from "../../../src/platforms/lambda/function-memory";

const MiB = 1024 * 1024;

describe("the memory a Lambda instance admits reviews to hold", () => {
  it("is the function's memory less the runtime's, as Lambda gives it in MiB", () => {
    expect(functionMemoryCap({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: "512" })).toBe(384 * MiB);
    expect(functionMemoryCap({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: "10240" })).toBe(10112 * MiB);
  });

  it("leaves the server's default outside Lambda or for a value Lambda would not set", () => {
    for (const value of [undefined, "", "0", "-128", "512.5", "lots"])
      expect(functionMemoryCap({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: value }), String(value)).toBeUndefined();
  });

  it("is raised to what the largest body holds at least, and CRDSHIFT_MAX_BYTES_IN_FLIGHT still wins", () => {
    const defaults = {
      bodyLimitBytes: 6 * MiB,
      maxBytesInFlight: functionMemoryCap({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: "128" }),
    };
    expect(defaults.maxBytesInFlight).toBe(0);
    expect(readConfig({}, defaults).maxBytesInFlight).toBe(24 * MiB);
    expect(readConfig({ CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(100 * MiB) }, defaults).maxBytesInFlight).toBe(100 * MiB);
  });
});
