/**
 * What reading from sources' origins may take: how long a cached original is served without
 * asking the origin, the largest object read, the deadline of one read, how many hosts of one
 * source keep copies, and where Google Cloud Storage is reached. Settings:
 * TROVE_ORIGIN_CACHE_TTL_SECONDS, TROVE_ORIGIN_MAX_BYTES, TROVE_ORIGIN_TIMEOUT_MS,
 * TROVE_ORIGIN_CACHE_MAX_HOSTS, TROVE_GCS_API_ENDPOINT (declared with their defaults in
 * src/config/settings.ts).
 */
import { SETTINGS } from "../../config/settings.js";

/** What the origin cache needs (src/sources/origins/origin-cache.ts). */
export interface OriginCacheSettings {
  /** How long a copy is served without asking the origin, ms. */
  ttlMs: number;
  /** Largest object read from an origin, bytes. */
  maxBytes: number;
  /** Deadline of one origin read, body included, ms. */
  timeoutMs: number;
  /**
   * Hosts besides the base URL's one source keeps copies for (an `image_source` whose
   * `canonical_header` names a subdomain); the least recently read host's copies go first.
   */
  maxHostsPerSource: number;
}

export interface OriginSettings extends OriginCacheSettings {
  /** Google Cloud Storage's JSON API base URL; unset: Google's own. */
  gcsApiEndpoint?: string | undefined;
}

export const DEFAULT_ORIGIN_SETTINGS: OriginSettings = {
  ttlMs: SETTINGS.TROVE_ORIGIN_CACHE_TTL_SECONDS.default * 1000,
  maxBytes: SETTINGS.TROVE_ORIGIN_MAX_BYTES.default,
  timeoutMs: SETTINGS.TROVE_ORIGIN_TIMEOUT_MS.default,
  maxHostsPerSource: SETTINGS.TROVE_ORIGIN_CACHE_MAX_HOSTS.default,
};

export function resolveOriginSettings(input: Partial<OriginSettings> = {}): OriginSettings {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_ORIGIN_SETTINGS, ...defined };
}
