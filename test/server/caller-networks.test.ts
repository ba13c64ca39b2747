import { describe, expect, it } from "vitest";
import { parseCallerNetworks } from "../../src/server/caller-networks";

describe("the caller networks (CRDSHIFT_ALLOWED_SOURCES)", () => {
  const { ranges, matches } = parseCallerNetworks(" 10.0.0.0/8, 2001:db8::/32 ,203.0.113.7,");

  it("keeps each range as written, and matches addresses inside them only", () => {
    expect(ranges).toEqual(["10.0.0.0/8", "2001:db8::/32", "203.0.113.7"]);
    expect(["10.1.2.3", "2001:db8::1", "203.0.113.7"].map(matches)).toEqual([true, true, true]);
    expect(["11.0.0.1", "2001:db9::1", "203.0.113.8"].map(matches)).toEqual([false, false, false]);
  });

  it("matches an IPv4 caller that a dual-stack socket reports as IPv4-mapped IPv6", () => {
    expect(matches("::ffff:10.9.8.7")).toBe(true);
    expect(matches("::ffff:192.0.2.1")).toBe(false);
  });

  it("matches nothing that is not an address, and refuses an entry that is neither address nor range", () => {
    expect(matches("not-an-address")).toBe(false);
    expect(matches("")).toBe(false);
    expect(() => parseCallerNetworks("10.0.0.0/8, example.com")).toThrow(
      '"example.com" is neither an IP address nor a CIDR range',
    );
  });
});
