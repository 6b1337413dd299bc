/**
 * A short-lived, bounded cache of API-key lookups. Under load most requests carry one of a few
 * keys, and the lookup (one indexed query) was a fixed cost of every request; with the cache a
 * burst of requests with one key costs one query per `ttlMs`, and concurrent misses for the same
 * key share one query.
 *
 * What it promises: a key revoked anywhere (another instance, the `trove-server keys` command, a
 * SQL console) is refused by every instance at most `ttlMs` later, because an entry is never
 * served past its age and nothing refreshes it in the background. Only active keys are cached: an
 * unknown or revoked key is looked up every time, so a key created a moment ago works at once and
 * a flood of invented keys cannot evict real ones. The admin API, revoking a key or disabling a
 * workspace on this instance, drops the entries at once (`forget`, `clear`); other instances
 * follow within `ttlMs`. An entry carries the key's expiry, checked on every use.
 */
import { LRUCache } from "lru-cache";
import type { ActiveApiKey } from "./api-keys.js";

export interface ActiveKeyCacheOptions {
  /** Longest an entry is served; 0 turns the cache off. */
  ttlMs: number;
  /** Most keys held at once (least recently used dropped first). */
  max?: number;
  /** Clock for the entries' age (tests); `performance` by default. */
  clock?: { now(): number };
}

export type ActiveKeyLookup = (keyHash: string) => Promise<ActiveApiKey | null>;

export interface ActiveKeyCache {
  /** The active key with this SHA-256 hash, or null. */
  get(keyHash: string): Promise<ActiveApiKey | null>;
  /** Forgets one key at once (this process revoked or changed it). */
  forget(keyHash: string): void;
  /** Forgets every key (this process disabled a workspace, whose keys it cannot name by hash). */
  clear(): void;
}

const DEFAULT_MAX_KEYS = 10_000;

export function createActiveKeyCache(
  lookup: ActiveKeyLookup,
  options: ActiveKeyCacheOptions,
): ActiveKeyCache {
  if (options.ttlMs <= 0) return { get: lookup, forget: () => {}, clear: () => {} };
  const cache = new LRUCache<string, ActiveApiKey>({
    max: options.max ?? DEFAULT_MAX_KEYS,
    ttl: options.ttlMs,
    // Read the clock on every get: the default reuses one reading for a millisecond.
    ttlResolution: 0,
    // A lookup that finds nothing resolves undefined, which LRUCache does not store.
    fetchMethod: async (keyHash) => (await lookup(keyHash)) ?? undefined,
    // A failed query is the request's error, never a cached answer.
    noDeleteOnFetchRejection: false,
    ...(options.clock ? { perf: options.clock } : {}),
  });
  return {
    get: async (keyHash) => (await cache.fetch(keyHash)) ?? null,
    forget: (keyHash) => {
      cache.delete(keyHash);
    },
    clear: () => {
      cache.clear();
    },
  };
}
