import ipaddr from "ipaddr.js";

/**
 * An allowlist of caller networks (CRDSHIFT_ALLOWED_SOURCES). Defence in depth, not
 * authentication: it narrows who can reach the webhook to the networks a cluster's apiservers
 * call from, but addresses are shared (NAT, clouds) and the apiserver proves nothing about itself.
 * Each platform names the address it saw itself; a client-sent header is never trusted.
 */
export type CallerNetworkMatcher = (address: string) => boolean;

/** Parses `10.0.0.0/8, 2001:db8::/32, 203.0.113.7` (a bare address is a single host). */
export function parseCallerNetworks(text: string): { ranges: string[]; matches: CallerNetworkMatcher } {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of entries) {
    if (ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else throw new Error(`${JSON.stringify(entry)} is neither an IP address nor a CIDR range`);
  }
  return {
    ranges: entries,
    matches: (address) => {
      if (!ipaddr.isValid(address)) return false;
      // IPv4 callers may arrive as IPv4-mapped IPv6 (::ffff:203.0.113.7) on dual-stack sockets.
      const parsed = ipaddr.process(address);
      return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
    },
  };
}
