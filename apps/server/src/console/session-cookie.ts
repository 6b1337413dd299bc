/**
 * The `trove_console` cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page
 * sends it), Path=/ (the console's pages and the API under the same origin), and Secure when the
 * request came over HTTPS: directly, or through a proxy TROVE_TRUST_PROXY trusts
 * (`request.protocol` reads X-Forwarded-Proto only from those). No Max-Age: the server ends
 * sessions (idle timeout, lifetime), and the browser drops the cookie when it closes.
 */
import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyRequest } from "fastify";

export const CONSOLE_COOKIE = "trove_console";
/** The header that must carry the session's CSRF token on every cookie-authenticated request. */
export const CSRF_HEADER = "x-csrf-token";

export function consoleCookieOptions(request: FastifyRequest): CookieSerializeOptions {
  return { httpOnly: true, sameSite: "strict", path: "/", secure: request.protocol === "https" };
}
