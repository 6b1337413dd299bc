import type { SessionStore } from "@trove/sdk/node";

export interface ResumeWatch {
  store: SessionStore;
  /**
   * Whether the upload is continuing a stored session. Asked at the first progress report:
   * a resumed session reports its confirmed parts before anything is written to the store,
   * whereas a new (or replaced) session is written right after `multipart/start`.
   */
  resumed(): boolean;
}

/** A SessionStore that passes everything through and notices when a stored session is continued. */
export function resumeWatch(store: SessionStore): ResumeWatch {
  let found = false;
  let writes = 0;
  return {
    store: {
      async get(key) {
        const session = await store.get(key);
        if (session && session.completed.length > 0) found = true;
        return session;
      },
      set: (key, session) => {
        writes += 1;
        return store.set(key, session);
      },
      delete: (key) => {
        writes += 1;
        return store.delete(key);
      },
    },
    resumed: () => found && writes === 0,
  };
}
