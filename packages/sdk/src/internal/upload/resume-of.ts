import type { ClientContext } from "../client/client-context.js";
import type { ResumableStore, SessionResume } from "./resumable-store.js";
import type { SessionStore } from "./session-store.js";

/** The code that resumes from `store`: createClient's own, else the store's (resumable()); none without a store. */
export function resumeOf(ctx: ClientContext, store: SessionStore | undefined): SessionResume | undefined {
  return store && (ctx.resume ?? (store as Partial<ResumableStore>).resume);
}
