/**
 * The headers of every /console page and file. The CSP allows only the console's own files
 * (no inline script or style: the built app has none), images, video and API calls to this
 * origin plus the delivery host when it is another origin (TROVE_ASSETS_URL), `blob:`/`data:` for
 * previews of files being uploaded, and no framing, plugins, <base> or foreign form targets.
 */
import type { FastifyReply } from "fastify";
import type { ServerConfig } from "../config.js";

/** The delivery origin the pages load media from, when it is not the API's own origin. */
function foreignDeliveryOrigin(config: Pick<ServerConfig, "publicUrl" | "assetsUrl">): string | undefined {
  const delivery = new URL(config.assetsUrl).origin;
  return delivery === new URL(config.publicUrl).origin ? undefined : delivery;
}

export function consoleContentSecurityPolicy(config: Pick<ServerConfig, "publicUrl" | "assetsUrl">): string {
  const delivery = foreignDeliveryOrigin(config);
  const plus = delivery === undefined ? "" : ` ${delivery}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${plus}`,
    `media-src 'self' blob:${plus}`,
    `connect-src 'self'${plus}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** Hashed build output (`/console/assets/*`) never changes under its name. */
export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";

export function setConsoleHeaders(reply: FastifyReply, csp: string): void {
  reply.headers({
    "content-security-policy": csp,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
  });
}
