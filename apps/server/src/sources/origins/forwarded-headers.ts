/**
 * Which of a delivery request's headers an `image_source` origin with `forward_header: true`
 * receives. Everything is forwarded except:
 * - hop-by-hop headers (RFC 9110 7.6.1) and any header the request's Connection names;
 * - credentials: Cookie and Authorization. Cookies are never forwarded: an origin's answer is
 *   cached and served to every visitor, so a response shaped by one visitor's session would leak
 *   to the next one;
 * - what Trove decides itself: Host, the conditional and range headers (Trove sends its own
 *   validators), Accept-Encoding (the bytes are stored and transformed, so they must arrive
 *   unencoded), body headers, and the client-address headers (Forwarded, X-Forwarded-*,
 *   X-Real-IP), which a client can forge;
 * - Trove's own headers: the API key header and `x-trove-*`.
 */
import type { IncomingHttpHeaders } from "node:http";

const NEVER_FORWARDED: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "cookie",
  "authorization",
  "accept-encoding",
  "content-length",
  "content-type",
  "content-encoding",
  "expect",
  "range",
  "if-range",
  "if-match",
  "if-none-match",
  "if-modified-since",
  "if-unmodified-since",
  "forwarded",
  "x-real-ip",
  "x-api-key",
]);

export function forwardedHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const connection = incoming.connection;
  const named = new Set(
    (Array.isArray(connection) ? connection.join(",") : (connection ?? ""))
      .split(",")
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ""),
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    const lower = name.toLowerCase();
    if (value === undefined || NEVER_FORWARDED.has(lower) || named.has(lower)) continue;
    if (lower.startsWith("x-forwarded-") || lower.startsWith("x-trove-") || lower.startsWith(":")) continue;
    headers[lower] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}
