/**
 * What reading from sources' origins may take: how long a cached original is served without
 * asking the origin, the largest object read, the deadline of one read, and where Google Cloud
 * Storage is reached. Settings: TROVE_ORIGIN_CACHE_TTL_SECONDS, TROVE_ORIGIN_MAX_BYTES,
 * TROVE_ORIGIN_TIMEOUT_MS, TROVE_GCS_API_ENDPOINT (src/config.ts).
 */
/** What the origin cache needs (src/origins/origin-cache.ts). */
export interface OriginCacheSettings {
  /** How long a copy is served without asking the origin, ms. */
  ttlMs: number;
  /** Largest object read from an origin, bytes. */
  maxBytes: number;
  /** Deadline of one origin read, body included, ms. */
  timeoutMs: number;
}

export interface OriginSettings extends OriginCacheSettings {
  /** Google Cloud Storage's JSON API base URL; unset: Google's own. */
  gcsApiEndpoint?: string | undefined;
}

export const DEFAULT_ORIGIN_SETTINGS: OriginSettings = {
  ttlMs: 3_600_000,
  maxBytes: 100 * 1024 * 1024,
  timeoutMs: 15_000,
};

export function resolveOriginSettings(input: Partial<OriginSettings> = {}): OriginSettings {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_ORIGIN_SETTINGS, ...defined };
}
