import { RESUME_MARGIN_MS } from "./session-journal.js";
import type { SessionStore } from "./session-store.js";

/** A multipart upload that can resume when the page hands the same file to `upload()` again. */
export interface StoredSessionSummary {
  /** The store key; `sessionStore.delete(key)` forgets the upload. */
  key: string;
  fileName: string;
  size: number;
  /** Bytes storage has confirmed: what a resume will not send again. */
  confirmed: number;
  /** When the upload started, ms since the epoch; undefined for sessions older SDKs stored. */
  startedAt: number | undefined;
  /** When its part URLs expire, ms since the epoch: it can be resumed until shortly before. */
  expiresAt: number;
}

/**
 * The sessions in `store` that a resume would still pick up (not about to expire), newest first.
 * The store keeps no file: the page can only say "choose photo.raw again", and `upload()` of
 * that file (same name, size and modification time) continues where it stopped.
 */
export async function listStoredSessions(store: SessionStore | undefined): Promise<StoredSessionSummary[]> {
  const entries = (await store?.list?.().catch(() => undefined)) ?? [];
  const resumableAfter = Date.now() + RESUME_MARGIN_MS;
  return entries
    .filter(([, session]) => session.expires_at * 1000 > resumableAfter)
    .map(([key, session]) => {
      const last = session.parts.length - 1;
      const lastLength = session.size - last * session.part_size;
      const confirmed = session.completed
        .filter((index, at, all) => index >= 0 && index <= last && all.indexOf(index) === at)
        .reduce((sum, index) => sum + (index === last ? lastLength : session.part_size), 0);
      return {
        key,
        fileName: session.file_name,
        size: session.size,
        confirmed,
        startedAt: session.started_at,
        expiresAt: session.expires_at * 1000,
      };
    })
    .sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));
}
