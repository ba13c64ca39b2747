import { describe, expect, it } from "vitest";
import { DEFAULTS, readConfig } from "../../../src/server";
import {
  HEAP_RESERVE_BYTES,
  heapBoundCap,
  heapLimitWarning,
  heapSizeLimit,
} from "../../../src/platforms/node/heap-limit";

const MiB = 1024 * 1024;
// heap_size_limit under --max-old-space-size=N on 64-bit V8 on a host over 2 GiB: N plus the 48 MiB young generation.
const limitFor = (maxOldSpaceMiB: number) => (maxOldSpaceMiB + 48) * MiB;

describe("the Node server's in-flight cap and V8's heap limit", () => {
  it("is the server's default where the heap leaves room for it, as Node's default heap on a large machine does", () => {
    expect(heapBoundCap(4144 * MiB)).toBe(DEFAULTS.maxBytesInFlight);
    expect(heapBoundCap(limitFor(320))).toBe(DEFAULTS.maxBytesInFlight);
  });

  it("is the heap limit less the reserve under a smaller heap, and never negative", () => {
    expect(heapBoundCap(limitFor(256))).toBe(limitFor(256) - HEAP_RESERVE_BYTES);
    expect(heapBoundCap(limitFor(96))).toBe(48 * MiB);
    expect(heapBoundCap(32 * MiB)).toBe(0);
  });

  it("is raised to what the largest body holds at least, and CRDSHIFT_MAX_BYTES_IN_FLIGHT still wins", () => {
    const defaults = { maxBytesInFlight: heapBoundCap(limitFor(96)) };
    expect(readConfig({ CRDSHIFT_BODY_LIMIT_BYTES: String(8 * MiB) }, defaults).maxBytesInFlight).toBe(48 * MiB);
    expect(readConfig({}, defaults).maxBytesInFlight).toBe(128 * MiB);
    expect(readConfig({ CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(1024 * MiB) }, defaults).maxBytesInFlight).toBe(
      1024 * MiB,
    );
  });

  it("warns when the cap in force is more than the heap leaves, naming both and what to set", () => {
    expect(heapLimitWarning(48 * MiB, limitFor(96))).toBeUndefined();
    expect(heapLimitWarning(256 * MiB, 4144 * MiB)).toBeUndefined();
    const warning = heapLimitWarning(128 * MiB, limitFor(96));
    expect(warning).toContain("CRDSHIFT_MAX_BYTES_IN_FLIGHT (128 MiB) is more than V8's heap limit (144 MiB)");
    expect(warning).toContain("leaves for reviews (48 MiB)");
    // The whole reserve: enough wherever V8 sizes the young generation smaller (small hosts).
    expect(warning).toContain("--max-old-space-size=224 at least");
    // A cap set in bytes, not whole MiB: the flag rounded up, so following it clears the warning.
    const odd = 128 * MiB + 1;
    expect(heapLimitWarning(odd, limitFor(96))).toContain("--max-old-space-size=225 at least");
    expect(heapLimitWarning(odd, 225 * MiB)).toBeUndefined();
  });

  it("reads this process's own limit from V8", () => {
    expect(heapSizeLimit()).toBeGreaterThan(HEAP_RESERVE_BYTES);
  });
});
