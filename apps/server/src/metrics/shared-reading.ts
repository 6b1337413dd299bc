/**
 * `sharedReading(read, ttlMs)`: a gauge reading that every scrape within `ttlMs` shares, and that
 * concurrent scrapes wait for together. `/metrics` on the API port answers anyone and some gauges
 * are database queries (open multipart sessions, jobs by state): without this, a flood of scrapes
 * would be a flood of queries, free to ask for and costly to answer. Prometheus scrapes every 15 s
 * or so, so a reading a few seconds old loses nothing. A failed reading is not kept.
 */
import { LRUCache } from "lru-cache";

const KEY = "reading";

export function sharedReading<T extends NonNullable<unknown>>(
  read: () => Promise<T>,
  ttlMs: number,
): () => Promise<T> {
  const cache = new LRUCache<typeof KEY, T>({
    max: 1,
    ttl: ttlMs,
    // Read the clock on every get: the TTL is short and exactness is cheap here.
    ttlResolution: 0,
    fetchMethod: () => read(),
  });
  return async () => {
    const value = await cache.fetch(KEY);
    if (value === undefined) throw new Error("metrics: the reading gave nothing");
    return value;
  };
}
