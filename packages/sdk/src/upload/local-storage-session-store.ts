import { isStoredUploadSession, type SessionStore } from "./session-store.js";

/**
 * A SessionStore on `localStorage`, so an upload resumes after a reload. Storage that is full,
 * disabled or missing (private mode, workers, servers) behaves as an empty store. The stored
 * part URLs are upload-only capabilities that expire with the session.
 */
export function localStorageSessionStore(storage: Storage | undefined = globalStorage()): SessionStore {
  return {
    async get(key) {
      try {
        const text = storage?.getItem(key);
        const value: unknown = text ? JSON.parse(text) : undefined;
        return isStoredUploadSession(value) ? value : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, session) {
      try {
        storage?.setItem(key, JSON.stringify(session));
      } catch {
        // Quota exceeded or storage disabled: the upload goes on, it just cannot resume.
      }
    },
    async delete(key) {
      try {
        storage?.removeItem(key);
      } catch {
        // As above.
      }
    },
  };
}

function globalStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    // Reading `localStorage` itself throws where storage is blocked (e.g. sandboxed iframes).
    return undefined;
  }
}
