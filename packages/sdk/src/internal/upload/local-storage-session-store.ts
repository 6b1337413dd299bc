import { type ResumableStore, sessionResume } from "./resumable-store.js";
import { SESSION_KEY_PREFIX } from "./session-key.js";
import { isStoredUploadSession, type StoredUploadSession } from "./session-store.js";

/**
 * A SessionStore on `localStorage`, so an upload resumes after a reload. Storage that is full,
 * disabled or missing (private mode, workers, servers) behaves as an empty store. The stored
 * part URLs are upload-only capabilities that expire with the session.
 */
export function localStorageSessionStore(storage: Storage | undefined = globalStorage()): ResumableStore {
  const get = async (key: string) => {
    try {
      const text = storage?.getItem(key);
      const value: unknown = text ? JSON.parse(text) : undefined;
      return isStoredUploadSession(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    // Brings the resume code along: createUploadClient does not carry it (resumable-store.ts).
    resume: sessionResume,
    get,
    async list() {
      // Only this SDK's keys (session-key.ts): the page's own entries are never parsed.
      const keys: string[] = [];
      try {
        for (let i = 0; i < (storage?.length ?? 0); i++) {
          const key = storage?.key(i);
          if (key?.startsWith(SESSION_KEY_PREFIX)) keys.push(key);
        }
      } catch {
        // As below: blocked storage lists nothing.
      }
      const found: Array<[string, StoredUploadSession]> = [];
      for (const key of keys) {
        const session = await get(key);
        if (session) found.push([key, session]);
      }
      return found;
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
