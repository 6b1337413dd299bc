import type { MultipartSession } from "@trove/schema/zod-free";
import type { SessionStore, StoredUploadSession } from "./session-store.js";

/** A stored session is resumed only if it has at least this long left; else a new one starts. */
export const RESUME_MARGIN_MS = 60_000;

/**
 * The session of one multipart upload and the parts confirmed so far, written through to the
 * SessionStore (when there is one) after every part. Writes are queued so they land in order,
 * and a failing store is ignored: resuming is best effort, the upload itself goes on.
 */
export interface SessionJournal {
  readonly session: MultipartSession;
  readonly completed: Set<number>;
  /** Whether the session is kept in a SessionStore, so a later upload of the input can resume it. */
  readonly resumable: boolean;
  /** Part `index` was confirmed by storage. */
  markCompleted(index: number): Promise<void>;
  /** The session is done with (completed, or expired): a later upload must not resume it. */
  discard(): Promise<void>;
}

/** The multipart job's fields the journal reads. */
export interface JournalTarget {
  store: SessionStore | undefined;
  key: string | undefined;
  size: number;
  startBody: { file_name: string };
}

/**
 * The stored session for `key` when it fits this upload and has not (nearly) expired;
 * otherwise `start()` opens a new one, which is stored before any part is sent.
 * (A closure, not a class with private fields: see progress-tracker.ts.)
 */
export async function openJournal(
  { store, key, size, startBody }: JournalTarget,
  start: () => Promise<MultipartSession>,
): Promise<SessionJournal> {
  const fileName = startBody.file_name;
  let writes = Promise.resolve();
  const write = (op: (store: SessionStore, key: string) => Promise<void>): Promise<void> => {
    if (store && key) writes = writes.then(() => op(store, key)).catch(() => undefined);
    return writes;
  };
  const stored = store && key ? await store.get(key).catch(() => undefined) : undefined;
  const resumed = stored !== undefined && fits(stored, size, fileName);
  const discard = () => write((store, key) => store.delete(key));
  if (stored && !resumed) await discard();
  const { session_id, part_size, parts, expires_at } = resumed ? stored : await start();
  const started_at = resumed ? stored.started_at : Date.now();
  const journal: SessionJournal = {
    session: { session_id, part_size, parts, expires_at },
    completed: new Set(resumed ? stored.completed.filter((index) => index >= 0 && index < parts.length) : []),
    resumable: store !== undefined && key !== undefined,
    markCompleted(index) {
      journal.completed.add(index);
      return save();
    },
    discard,
  };
  const save = () => {
    const snapshot: StoredUploadSession = {
      version: 1,
      ...journal.session,
      completed: [...journal.completed].sort((a, b) => a - b),
      size,
      file_name: fileName,
      ...(started_at === undefined ? {} : { started_at }),
    };
    return write((store, key) => store.set(key, snapshot));
  };
  if (!resumed) await save();
  return journal;
}

function fits(stored: StoredUploadSession, size: number, fileName: string): boolean {
  return (
    stored.size === size &&
    stored.file_name === fileName &&
    stored.parts.length === Math.ceil(size / stored.part_size) &&
    stored.expires_at * 1000 > Date.now() + RESUME_MARGIN_MS
  );
}
