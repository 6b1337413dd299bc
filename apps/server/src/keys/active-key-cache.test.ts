import { describe, expect, it } from "vitest";
import { type ActiveKeyLookup, createActiveKeyCache } from "./active-key-cache.js";
import type { ActiveApiKey } from "./api-keys.js";

const KEY: ActiveApiKey = {
  id: "k1",
  type: "private",
  workspaceId: "w1",
  workspaceNo: "abc",
  policy: null,
  expiresAt: null,
};

/** A lookup backed by a mutable table, counting the queries it runs. */
function table(rows: Record<string, ActiveApiKey>) {
  const calls: string[] = [];
  const lookup: ActiveKeyLookup = async (hash) => {
    calls.push(hash);
    return rows[hash] ?? null;
  };
  return { lookup, calls, rows };
}

function manualClock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("active key cache", () => {
  it("serves a key from memory within ttl and looks it up again after", async () => {
    const db = table({ h1: KEY });
    const clock = manualClock();
    const cache = createActiveKeyCache(db.lookup, { ttlMs: 1000, clock });
    expect(await cache.get("h1")).toEqual(KEY);
    clock.advance(999);
    expect(await cache.get("h1")).toEqual(KEY);
    expect(db.calls).toHaveLength(1);
    // Revoked elsewhere: the row is gone for the lookup; the cached entry expires with its ttl.
    delete db.rows.h1;
    clock.advance(2);
    expect(await cache.get("h1")).toBeNull();
    expect(db.calls).toHaveLength(2);
  });

  it("never caches a miss, so a key created a moment ago works at once", async () => {
    const db = table({});
    const cache = createActiveKeyCache(db.lookup, { ttlMs: 1000, clock: manualClock() });
    expect(await cache.get("h1")).toBeNull();
    db.rows.h1 = KEY;
    expect(await cache.get("h1")).toEqual(KEY);
  });

  it("shares one query between concurrent requests with the same key", async () => {
    const db = table({ h1: KEY });
    const cache = createActiveKeyCache(db.lookup, { ttlMs: 1000, clock: manualClock() });
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get("h1")));
    expect(results.every((r) => r?.id === "k1")).toBe(true);
    expect(db.calls).toHaveLength(1);
  });

  it("does not remember a failed query", async () => {
    let fail = true;
    const cache = createActiveKeyCache(
      async () => {
        if (fail) throw new Error("connection reset");
        return KEY;
      },
      { ttlMs: 1000, clock: manualClock() },
    );
    await expect(cache.get("h1")).rejects.toThrow("connection reset");
    fail = false;
    expect(await cache.get("h1")).toEqual(KEY);
  });

  it("forget drops one key at once", async () => {
    const db = table({ h1: KEY });
    const cache = createActiveKeyCache(db.lookup, { ttlMs: 1000, clock: manualClock() });
    await cache.get("h1");
    delete db.rows.h1;
    cache.forget("h1");
    expect(await cache.get("h1")).toBeNull();
  });

  it("holds at most max keys, so invented keys cannot grow it", async () => {
    const rows = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`h${i}`, { ...KEY, id: `k${i}` }]));
    const db = table(rows);
    const cache = createActiveKeyCache(db.lookup, { ttlMs: 1000, max: 10, clock: manualClock() });
    for (let i = 0; i < 50; i += 1) await cache.get(`h${i}`);
    await cache.get("h0");
    expect(db.calls.filter((h) => h === "h0")).toHaveLength(2);
    await cache.get("h49");
    expect(db.calls.filter((h) => h === "h49")).toHaveLength(1);
  });

  it("with ttl 0 looks up every time", async () => {
    const db = table({ h1: KEY });
    const cache = createActiveKeyCache(db.lookup, { ttlMs: 0 });
    await cache.get("h1");
    await cache.get("h1");
    expect(db.calls).toHaveLength(2);
  });
});
