import { describe, expect, it } from "vitest";
import { localStorageSessionStore } from "./local-storage-session-store.js";
import type { StoredUploadSession } from "./session-store.js";

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

const session: StoredUploadSession = {
  version: 1,
  session_id: "s",
  part_size: 5,
  parts: ["u1", "u2"],
  expires_at: 2_000_000_000,
  completed: [0],
  size: 9,
  file_name: "a.bin",
};

describe("localStorageSessionStore", () => {
  it("stores, reads and deletes sessions", async () => {
    const storage = memoryStorage();
    const store = localStorageSessionStore(storage);
    await store.set("k", session);
    expect(JSON.parse(storage.getItem("k") ?? "")).toEqual(session);
    expect(await store.get("k")).toEqual(session);
    await store.delete("k");
    expect(await store.get("k")).toBeUndefined();
  });

  it("ignores garbage and behaves as empty when storage throws or is missing", async () => {
    const storage = memoryStorage();
    storage.setItem("bad", "{nope");
    storage.setItem("wrong", JSON.stringify({ version: 2 }));
    const store = localStorageSessionStore(storage);
    expect(await store.get("bad")).toBeUndefined();
    expect(await store.get("wrong")).toBeUndefined();

    const full = {
      ...memoryStorage(),
      setItem: () => {
        throw new DOMException("full", "QuotaExceededError");
      },
    };
    await expect(localStorageSessionStore(full).set("k", session)).resolves.toBeUndefined();
    await expect(localStorageSessionStore(undefined).get("k")).resolves.toBeUndefined();
  });

  it("lists only the SDK's own keys, skipping what does not parse as a session", async () => {
    const storage = memoryStorage();
    storage.setItem("theme", "dark");
    storage.setItem("trove:upload:broken", "{not json");
    const store = localStorageSessionStore(storage);
    await store.set("trove:upload:abc", session);
    await expect(store.list?.()).resolves.toEqual([["trove:upload:abc", session]]);
  });
});
