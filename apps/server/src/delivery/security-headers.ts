/**
 * The security headers of every delivery response: stored files, variants, no-op transforms,
 * 304s, range errors and error envelopes alike. The delivery host serves user content from the
 * API's own origin, so nothing it sends may run as a page there:
 *
 * - `X-Content-Type-Options: nosniff`, so a browser never upgrades text to HTML or script;
 * - a Content-Security-Policy with `sandbox` and `default-src 'none'`: an SVG, HTML or XML
 *   document opened directly gets a unique opaque origin, no script, no forms, no plugins, and
 *   may load nothing but images and media from this host. Inside an `<img>` the policy changes
 *   nothing, so every image keeps working.
 *
 * It is set from the delivery routes' `onSend` hook (src/routes/delivery.ts), so no route,
 * error path or future origin (sources) can send a response without it; the app's handler of malformed URLs, which runs
 * before any route, sets it too (`isDeliveryUrl`).
 */
import type { FastifyReply } from "fastify";

export const DELIVERY_CONTENT_SECURITY_POLICY =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

export function setDeliverySecurityHeaders(reply: FastifyReply): void {
  reply.header("x-content-type-options", "nosniff");
  reply.header("content-security-policy", DELIVERY_CONTENT_SECURITY_POLICY);
}

/** Whether a raw request URL is under the delivery host's path prefix (`/assets`). */
export function isDeliveryUrl(url: string, assetsPrefix: string): boolean {
  const prefix = assetsPrefix.replace(/(?<!\/)\/+$/, "");
  return url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
}
