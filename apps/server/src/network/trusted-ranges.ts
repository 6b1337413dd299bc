import ipaddr from "ipaddr.js";

/** One parsed CIDR range. */
export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parsed ranges that the address guard allows even though they are private (on-premise, tests). */
export interface TrustedRanges {
  readonly ranges: readonly Cidr[];
  /** The ranges as given, normalised (`127.0.0.0/8`), for logs. */
  readonly source: readonly string[];
}

/** What options accept: `"127.0.0.0/8,::1/128"`, `["10.1.0.0/16"]`, or ranges parsed before. */
export type TrustedRangesInput = string | readonly string[] | TrustedRanges | null | undefined;

export const NO_TRUSTED_RANGES: TrustedRanges = Object.freeze({ ranges: [], source: [] });

/**
 * Parses a list of CIDR ranges (comma- or whitespace-separated string, or an array). A bare address
 * counts as a single host (/32 or /128). Throws a `TypeError` naming the first invalid entry, so a
 * typo in the environment stops start-up instead of silently trusting nothing (or everything).
 */
export function parseTrustedRanges(input: TrustedRangesInput): TrustedRanges {
  if (input == null) return NO_TRUSTED_RANGES;
  if (typeof input === "object" && !Array.isArray(input) && "ranges" in input) return input as TrustedRanges;
  const entries = (typeof input === "string" ? input.split(/[\s,]+/) : (input as readonly string[]))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) return NO_TRUSTED_RANGES;
  const ranges: Cidr[] = [];
  const source: string[] = [];
  for (const entry of entries) {
    const range = parseRange(entry);
    ranges.push(range);
    source.push(`${range[0].toString()}/${range[1]}`);
  }
  return Object.freeze({ ranges: Object.freeze(ranges), source: Object.freeze(source) });
}

function parseRange(entry: string): Cidr {
  try {
    if (entry.includes("/")) {
      // Only canonical dotted IPv4 in ranges: ipaddr.js would also read `127.1/8` or `0x7f.0.0.0/8`.
      if (!entry.includes(":") && !ipaddr.IPv4.isValidCIDRFourPartDecimal(entry))
        throw new Error("not dotted");
      return ipaddr.parseCIDR(entry);
    }
    if (!entry.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(entry)) throw new Error("not dotted");
    const address = ipaddr.parse(entry);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  } catch {
    throw new TypeError(`Invalid trusted range "${entry}": expected CIDR such as 10.0.0.0/8 or fd00::/8`);
  }
}

/** Whether `address` lies in one of `trusted` (ranges of the other IP version are skipped). */
export function isTrusted(address: ipaddr.IPv4 | ipaddr.IPv6, trusted: TrustedRanges): boolean {
  return trusted.ranges.some(([network, bits]) => {
    if (network.kind() !== address.kind()) return false;
    return address.kind() === "ipv4"
      ? (address as ipaddr.IPv4).match(network as ipaddr.IPv4, bits)
      : (address as ipaddr.IPv6).match(network as ipaddr.IPv6, bits);
  });
}
