/**
 * Rate-limit settings (`config.rateLimit`); the variables and their defaults are declared in
 * src/config/settings.ts, the layers that use them are in src/plugins/rate-limit.ts. Every limit counts requests in one window
 * of `windowMs`.
 *
 * Why the defaults:
 * - `max` 600 per private key: what one backend may ask of the API (10 a second), unchanged.
 * - `addressMax` 1,200 per client address, before authentication: twice a key's budget, so a
 *   backend behind one address is stopped by its key's limit first, and this one only bites on
 *   floods of missing or wrong keys (each costs a key lookup) or on hopping between keys.
 * - `publicKeyAddressMax` 120 per (public key, address): one visitor's uploads from a page,
 *   2 a second (a 100-file gallery in a minute).
 * - `publicKeyMax` 60,000 per public key: every visitor of a site together. It only bounds what
 *   one workspace's browser traffic may cost; 500 addresses at full speed are needed to spend it.
 * - `partAddressMax` 24,000 part PUTs per address: two sessions' whole part budget
 *   (`PART_REQUESTS_PER_WINDOW`) a window; it stops one address from making up session ids to get
 *   a fresh per-session budget each time.
 * - `assetsMax` 1,200 delivery requests per address: a page with hundreds of images loads
 *   freely, while one address cannot keep the image pipeline busy with variant after variant.
 */
import { SETTINGS } from "../config/settings.js";

export interface RateLimitConfig {
  /** Requests per private key (TROVE_RATE_LIMIT_MAX). */
  max: number;
  /** Length of every window, ms (TROVE_RATE_LIMIT_WINDOW_MS). */
  windowMs: number;
  /** /api/ requests per client address, counted before authentication (part PUTs excluded). */
  addressMax: number;
  /** Requests per public key, all visitors together. */
  publicKeyMax: number;
  /** Requests per public key and client address: one visitor's share. */
  publicKeyAddressMax: number;
  /** Part PUTs per client address, on top of each session's own budget. */
  partAddressMax: number;
  /** Requests under the assets prefix (delivery) per client address. */
  assetsMax: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  max: SETTINGS.TROVE_RATE_LIMIT_MAX.default,
  windowMs: SETTINGS.TROVE_RATE_LIMIT_WINDOW_MS.default,
  addressMax: SETTINGS.TROVE_RATE_LIMIT_ADDRESS_MAX.default,
  publicKeyMax: SETTINGS.TROVE_RATE_LIMIT_PUBLIC_KEY_MAX.default,
  publicKeyAddressMax: SETTINGS.TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX.default,
  partAddressMax: SETTINGS.TROVE_RATE_LIMIT_PART_ADDRESS_MAX.default,
  assetsMax: SETTINGS.TROVE_ASSETS_RATE_LIMIT_MAX.default,
};

export function resolveRateLimitConfig(input: Partial<RateLimitConfig> = {}): RateLimitConfig {
  return { ...DEFAULT_RATE_LIMITS, ...input };
}
