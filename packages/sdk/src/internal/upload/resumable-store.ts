import { openJournal } from "./session-journal.js";
import { sessionKey } from "./session-key.js";
import type { SessionStore } from "./session-store.js";
import { listStoredSessions } from "./stored-sessions.js";

/**
 * The code that resumes multipart uploads from a SessionStore: opening a stored session (or
 * recording a new one), naming it, and listing what can be resumed. createUploadClient does not
 * carry it (issue #35: the upload entry's default path stays small); a store brings it along
 * (resumable(), localStorageSessionStore()). createClient always has it.
 */
export interface SessionResume {
  readonly open: typeof openJournal;
  readonly key: typeof sessionKey;
  readonly list: typeof listStoredSessions;
}

export const sessionResume: SessionResume = { open: openJournal, key: sessionKey, list: listStoredSessions };

/** A SessionStore together with the code that resumes from it: what createUploadClient's `sessionStore` takes. */
export interface ResumableStore extends SessionStore {
  readonly resume: SessionResume;
}

/**
 * Makes any SessionStore usable by createUploadClient (`sessionStore: resumable(myStore)`).
 * The store is called through, not copied: a class-based store keeps its `this`.
 */
export function resumable(store: SessionStore): ResumableStore {
  return {
    get: (key) => store.get(key),
    set: (key, session) => store.set(key, session),
    delete: (key) => store.delete(key),
    ...(store.list && { list: () => store.list?.() ?? Promise.resolve([]) }),
    resume: sessionResume,
  };
}
