import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { traceFields, traceparentFields } from "../../src/server/trace-context";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

/**
 * The spec's reading, written apart from the parser: the first 55 characters are four dashed
 * fields of 2, 32, 16 and 2 lower-case hex digits; version 00 is exactly that, a later version
 * may go on after a dash; ff and all-zero ids are invalid.
 */
function specReading(header: string): { traceId: string; spanId: string } | undefined {
  if (header.length < 55) return undefined;
  const fields = header.slice(0, 55).split("-");
  const lengths = [2, 32, 16, 2];
  if (fields.length !== 4 || fields.some((f, i) => f.length !== lengths[i] || !/^[0-9a-f]*$/.test(f))) return undefined;
  const [version, traceId, spanId] = fields as [string, string, string, string];
  if (version === "ff") return undefined;
  if (header.length > 55 && (version === "00" || header[55] !== "-")) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId };
}

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: length, maxLength: length });
/** Headers near the valid ones: a valid shape, then characters swapped, cut or added. */
const nearlyValid = fc
  .tuple(hex(2), hex(32), hex(16), hex(2), fc.string({ maxLength: 8 }))
  .chain(([version, traceId, spanId, flags, tail]) => {
    const header = `${version}-${traceId}-${spanId}-${flags}${tail}`;
    return fc.oneof(
      fc.constant(header),
      fc
        .tuple(fc.nat({ max: header.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }))
        .map(([at, char]) => header.slice(0, at) + char + header.slice(at + 1)),
      fc.nat({ max: header.length }).map((at) => header.slice(0, at)),
      fc.constantFrom("00-", "ff-", "01-", " ").map((prefix) => prefix + header.slice(3)),
    );
  });

describe("a traceparent header", () => {
  it("gives the trace and parent ids of version 00", () => {
    expect(traceparentFields(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, spanId: SPAN });
    expect(traceparentFields(`00-${TRACE}-${SPAN}-00`)).toEqual({ traceId: TRACE, spanId: SPAN });
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["all-zero trace id", `00-${"0".repeat(32)}-${SPAN}-01`],
    ["all-zero parent id", `00-${TRACE}-${"0".repeat(16)}-01`],
    ["upper-case hex", `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ["version ff", `ff-${TRACE}-${SPAN}-01`],
    ["version 00 with more after it", `00-${TRACE}-${SPAN}-01-extra`],
    ["two headers joined by the fetch API", `00-${TRACE}-${SPAN}-01, 00-${TRACE}-${SPAN}-01`],
    ["a short trace id", `00-${TRACE.slice(1)}-${SPAN}-01`],
    ["a field too many in the trace id", `00-${TRACE.slice(0, 16)}-${TRACE.slice(16)}-${SPAN}-01`],
    ["a later version followed by anything but a dash", `01-${TRACE}-${SPAN}-01.extra`],
    ["a script in place of the ids", `00-<script>${"x".repeat(36)}-${SPAN}-01`],
  ])("is ignored when %s", (_, header) => {
    expect(traceparentFields(header)).toBeUndefined();
  });

  it("of a later version is read as its first four fields, as the spec says", () => {
    expect(traceparentFields(`01-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, spanId: SPAN });
    expect(traceparentFields(`cc-${TRACE}-${SPAN}-09-what-comes-next`)).toEqual({ traceId: TRACE, spanId: SPAN });
  });

  it("is read as the spec reads it, whatever the string, and only hex ids ever come out", () => {
    const header = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: "binary", maxLength: 80 }), nearlyValid);
    fc.assert(
      fc.property(header, (text) => {
        const fields = traceparentFields(text);
        expect(fields).toEqual(specReading(text));
        if (fields) {
          expect(fields.traceId).toMatch(/^[0-9a-f]{32}$/);
          expect(fields.spanId).toMatch(/^[0-9a-f]{16}$/);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("accepts every valid version 00 header", () => {
    const id = (length: number) => hex(length).filter((text) => /[1-9a-f]/.test(text));
    fc.assert(
      fc.property(id(32), id(16), hex(2), (traceId, spanId, flags) => {
        expect(traceparentFields(`00-${traceId}-${spanId}-${flags}`)).toEqual({ traceId, spanId });
      }),
    );
  });
});

describe("a request's trace fields", () => {
  it("are the caller's and the platform's together, either alone, or none", () => {
    const caller = { traceId: TRACE, spanId: SPAN };
    const platform = { cfRay: "8f1a2b3c4d5e6f70-SJC" };
    expect(traceFields(caller, platform)).toEqual({ ...caller, ...platform });
    expect(traceFields(caller, undefined)).toBe(caller);
    expect(traceFields(undefined, platform)).toBe(platform);
    expect(traceFields(undefined, undefined)).toBeUndefined();
  });
});
