import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import {
  isTrusted,
  NO_TRUSTED_RANGES,
  parseTrustedRanges,
  type TrustedRangesInput,
} from "./trusted-ranges.js";

/**
 * The guard's verdict on one IP address.
 *
 * - `range`: ipaddr.js's name for the range that decided (`unicast`, `loopback`, `private`,
 *   `linkLocal`, `carrierGradeNat`, `uniqueLocal`, `multicast`, `broadcast`, `unspecified`,
 *   `reserved`, `benchmarking`, `6to4`, `teredo`, `rfc6052`, ...), `notGlobalUnicast` for IPv6
 *   outside 2000::/3, or `invalid` for anything that is not a plain IP literal.
 * - `embeddedIPv4`: the IPv4 address carried inside an IPv6 one (IPv4-mapped, NAT64, 6to4, Teredo).
 * - `trusted`: allowed only because a trusted range covers it.
 */
export interface AddressDecision {
  address: string;
  allowed: boolean;
  range: string;
  trusted: boolean;
  embeddedIPv4?: string;
  /** Why it was refused, for logs: "10.0.0.1 is in a private range". */
  reason?: string;
}

export interface ClassifyOptions {
  trustedRanges?: TrustedRangesInput;
}

// 2000::/3 is all the global unicast space IANA hands out; anything else in IPv6 is special.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];
// RFC 6052 well-known NAT64 prefix: the low 32 bits are the IPv4 destination. DNS64 resolvers on
// IPv6-only hosts answer with these for ordinary public sites, so they are judged by that IPv4.
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96") as [ipaddr.IPv6, number];

const RANGE_LABELS: Record<string, string> = {
  loopback: "a loopback address",
  private: "in a private range",
  linkLocal: "link-local",
  carrierGradeNat: "in the carrier-grade NAT range",
  uniqueLocal: "a unique-local (private) IPv6 address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  unspecified: "an unspecified address",
  reserved: "in a reserved or documentation range",
  benchmarking: "in a benchmarking range",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  rfc6052: "a local-use NAT64 address",
  rfc6145: "an IPv4-translated address",
  notGlobalUnicast: "outside global unicast space",
  invalid: "not a valid IP address",
};

/**
 * Decides whether the server may connect to `address`. Only public unicast addresses are allowed,
 * plus whatever `trustedRanges` names. IPv6 forms that carry an IPv4 address (`::ffff:127.0.0.1`,
 * `64:ff9b::a00:1`) are unwrapped first and judged as that IPv4; 6to4 and Teredo are refused outright
 * (tunnels to an embedded IPv4 nobody should need from a server).
 *
 * Accepts only plain literals as `net.isIP` reads them (dotted-quad IPv4, IPv6 with optional
 * brackets). Odd forms (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`) are `invalid`, hence refused:
 * URLs must be normalised by WHATWG parsing first (see ./check-url.ts), which turns them into dotted
 * IPv4. Never throws.
 */
export function classifyAddress(address: string, options: ClassifyOptions = {}): AddressDecision {
  const trusted = options.trustedRanges ? parseTrustedRanges(options.trustedRanges) : NO_TRUSTED_RANGES;
  const literal = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  if (isIP(literal) === 0 || literal.includes("%")) return refuse(address, "invalid");

  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(literal);
  } catch {
    return refuse(address, "invalid");
  }

  let effective: ipaddr.IPv4 | ipaddr.IPv6 = parsed;
  let embeddedIPv4: string | undefined;
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      effective = v6.toIPv4Address();
    } else if (v6.match(NAT64_WELL_KNOWN)) {
      effective = lowIPv4(v6);
    }
    if (effective !== parsed) embeddedIPv4 = effective.toString();
  }

  if (isTrusted(parsed, trusted) || (effective !== parsed && isTrusted(effective, trusted))) {
    return {
      address,
      allowed: true,
      range: rangeOf(effective),
      trusted: true,
      ...withEmbedded(embeddedIPv4),
    };
  }

  if (effective.kind() === "ipv4") {
    const range = rangeOf(effective);
    return range === "unicast"
      ? { address, allowed: true, range, trusted: false, ...withEmbedded(embeddedIPv4) }
      : refuse(address, range, embeddedIPv4);
  }

  const v6 = effective as ipaddr.IPv6;
  const range = rangeOf(v6);
  if (range === "6to4") return refuse(address, range, sixToFourIPv4(v6));
  if (range === "teredo") return refuse(address, range, teredoClientIPv4(v6));
  if (range !== "unicast") return refuse(address, range);
  if (!v6.match(GLOBAL_UNICAST_V6)) return refuse(address, "notGlobalUnicast");
  return { address, allowed: true, range, trusted: false };
}

/** `classifyAddress(address).allowed`. */
export function isAddressAllowed(address: string, options: ClassifyOptions = {}): boolean {
  return classifyAddress(address, options).allowed;
}

function refuse(address: string, range: string, embeddedIPv4?: string): AddressDecision {
  const label = RANGE_LABELS[range] ?? `in the special-purpose range "${range}"`;
  const via = embeddedIPv4 ? ` (carries ${embeddedIPv4})` : "";
  return {
    address,
    allowed: false,
    range,
    trusted: false,
    ...withEmbedded(embeddedIPv4),
    reason: `${address}${via} is ${label}`,
  };
}

function withEmbedded(embeddedIPv4: string | undefined): { embeddedIPv4?: string } {
  return embeddedIPv4 === undefined ? {} : { embeddedIPv4 };
}

function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.range();
}

function lowIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 {
  const [hi = 0, lo = 0] = v6.parts.slice(6);
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** 2002:AABB:CCDD::/48 carries AA.BB.CC.DD. */
function sixToFourIPv4(v6: ipaddr.IPv6): string {
  const hi = v6.parts[1] ?? 0;
  const lo = v6.parts[2] ?? 0;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]).toString();
}

/** Teredo: the client's IPv4 is the low 32 bits, inverted. */
function teredoClientIPv4(v6: ipaddr.IPv6): string {
  const hi = ~(v6.parts[6] ?? 0) & 0xffff;
  const lo = ~(v6.parts[7] ?? 0) & 0xffff;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]).toString();
}
