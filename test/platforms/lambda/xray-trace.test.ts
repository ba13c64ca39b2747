import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { xrayTraceFields } from "../../../src/platforms/lambda/xray-trace";

const ROOT = "1-5759e988-bd862e3fe1be46a994272793";

describe("an X-Ray trace header", () => {
  it("gives its Root wherever it stands, and nothing else of the header", () => {
    expect(xrayTraceFields(`Root=${ROOT};Parent=53995c3f42cd8ad8;Sampled=1`)).toEqual({ xrayTraceId: ROOT });
    expect(xrayTraceFields(`Self=1-67891234-12456789abcdef012345678;Root=${ROOT};Sampled=0`)).toEqual({
      xrayTraceId: ROOT,
    });
    expect(xrayTraceFields(`Root=${ROOT}`)).toEqual({ xrayTraceId: ROOT });
  });

  it.each([
    ["absent", undefined],
    ["without a Root", "Parent=53995c3f42cd8ad8;Sampled=1"],
    ["with a Root of another form", "Root=1-5759e988-bd862e3f;Sampled=1"],
    ["with a Root running on into other text", `Root=${ROOT}<script>;Sampled=1`],
    ["with a Root of version 2", "Root=2-5759e988-bd862e3fe1be46a994272793"],
  ])("is ignored %s", (_, header) => {
    expect(xrayTraceFields(header)).toBeUndefined();
  });

  it("never gives anything but a Root's exact form, whatever the header", () => {
    const header = fc.oneof(
      fc.string({ maxLength: 100 }),
      fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([a, b]) => `${a}Root=${ROOT}${b}`),
    );
    fc.assert(
      fc.property(header, (text) => {
        const fields = xrayTraceFields(text);
        if (fields) expect(fields).toEqual({ xrayTraceId: expect.stringMatching(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/) });
      }),
    );
  });
});
