import { describe, expect, it } from "vitest";
import { latencyFindings, traceThresholdMs } from "../../../src/cli/doctor/latency";

describe("latency against the apiserver's limits (figures given, not measured)", () => {
  it("the trace threshold is 50 ms + 8 ms per object", () => {
    expect([traceThresholdMs(1), traceThresholdMs(100)]).toEqual([58, 850]);
  });

  it("a slow first call alone (a new connection, a cold start) is reported, not warned about", () => {
    const found = latencyFindings([900, 5, 6, 7]);
    expect(found.map((f) => `${f.severity} ${f.code}`)).toEqual(["info latency"]);
    expect(found[0]!.message).toBe(
      "4 calls: first 900 ms (new connection), median 6.0 ms, slowest 900 ms; 1 over the apiserver's trace threshold of 58 ms for one object, limit 30 s",
    );
  });

  it("a median over the threshold is a warning; a call over half the timeout another", () => {
    expect(latencyFindings([70, 60, 80, 90]).map((f) => f.code)).toEqual(["latency", "latency-over-trace-threshold"]);
    expect(latencyFindings([10, 5, 16_000, 5]).map((f) => f.code)).toEqual(["latency", "latency-near-timeout"]);
    expect(latencyFindings([])).toEqual([]);
  });
});
