/**
 * `TROVE_TRUST_PROXY`: which reverse proxies may name the client address (`X-Forwarded-For`), as
 * Fastify's `trustProxy` option takes it.
 *
 *   unset or ""          -> false: the client is the socket's peer (a proxy in front makes every
 *                           request come from the proxy's address, so all share one rate limit)
 *   "1", "2"             -> that many proxy hops in front of this server are trusted
 *   "10.0.0.0/8,::1"     -> peers in these ranges (CIDRs or addresses) are trusted proxies
 *
 * `true` (trust every peer) is refused on purpose: any client could then choose its own address
 * with one header and step around every per-address limit.
 */
import { parseTrustedRanges } from "./trusted-ranges.js";

export type TrustProxy = false | number | string[];

export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? "";
  if (text === "") return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 0 && hops <= 32) return hops;
    if (hops === 0) return false;
    throw new TypeError(`expected a hop count from 0 to 32, got ${text}`);
  }
  // Throws a TypeError naming the first entry that is not a CIDR or address.
  return [...parseTrustedRanges(text).source];
}

/**
 * The value for Fastify's `trustProxy` option. Fastify accepts a hop count at run time, but its
 * types do not; a count becomes the function Fastify would make of it (trust the first n hops).
 */
export function fastifyTrustProxy(
  value: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === "number" ? (_address, hop) => hop < value : value;
}
