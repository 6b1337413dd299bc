import type { MultipartSession } from "@trove/schema";
import type { SessionStore, StoredUploadSession } from "./session-store.js";

/** A stored session is resumed only if it has at least this long left; else a new one starts. */
export const RESUME_MARGIN_MS = 60_000;

/**
 * The session of one multipart upload and the parts confirmed so far, written through to the
 * SessionStore (when there is one) after every part. Writes are queued so they land in order,
 * and a failing store is ignored: resuming is best effort, the upload itself goes on.
 */
export class SessionJournal {
  readonly session: MultipartSession;
  readonly completed: Set<number>;
  readonly resumed: boolean;
  readonly #store: SessionStore | undefined;
  readonly #key: string | undefined;
  readonly #size: number;
  readonly #fileName: string;
  #writes: Promise<void> = Promise.resolve();

  private constructor(
    session: MultipartSession,
    completed: Iterable<number>,
    resumed: boolean,
    target: { store: SessionStore | undefined; key: string | undefined; size: number; fileName: string },
  ) {
    this.session = session;
    this.completed = new Set(completed);
    this.resumed = resumed;
    this.#store = target.store;
    this.#key = target.key;
    this.#size = target.size;
    this.#fileName = target.fileName;
  }

  /**
   * The stored session for `key` when it fits this upload and has not (nearly) expired;
   * otherwise `start()` opens a new one, which is stored before any part is sent.
   */
  static async open(
    target: { store: SessionStore | undefined; key: string | undefined; size: number; fileName: string },
    start: () => Promise<MultipartSession>,
  ): Promise<SessionJournal> {
    const { store, key } = target;
    const stored = store && key ? await store.get(key).catch(() => undefined) : undefined;
    if (stored && fits(stored, target.size, target.fileName)) {
      const { session_id, part_size, parts, expires_at } = stored;
      const valid = stored.completed.filter((index) => index >= 0 && index < parts.length);
      return new SessionJournal({ session_id, part_size, parts, expires_at }, valid, true, target);
    }
    if (stored && store && key) await store.delete(key).catch(() => undefined);
    const journal = new SessionJournal(await start(), [], false, target);
    await journal.#save();
    return journal;
  }

  /** Part `index` was confirmed by storage. */
  markCompleted(index: number): Promise<void> {
    this.completed.add(index);
    return this.#save();
  }

  /** The session is done with (completed, or expired): a later upload must not resume it. */
  discard(): Promise<void> {
    this.#writes = this.#writes.then(async () => {
      if (this.#store && this.#key) await this.#store.delete(this.#key).catch(() => undefined);
    });
    return this.#writes;
  }

  #save(): Promise<void> {
    const store = this.#store;
    const key = this.#key;
    if (!store || !key) return this.#writes;
    const snapshot: StoredUploadSession = {
      version: 1,
      session_id: this.session.session_id,
      part_size: this.session.part_size,
      parts: this.session.parts,
      expires_at: this.session.expires_at,
      completed: [...this.completed].sort((a, b) => a - b),
      size: this.#size,
      file_name: this.#fileName,
    };
    this.#writes = this.#writes.then(() => store.set(key, snapshot).catch(() => undefined));
    return this.#writes;
  }
}

function fits(stored: StoredUploadSession, size: number, fileName: string): boolean {
  return (
    stored.size === size &&
    stored.file_name === fileName &&
    stored.parts.length === Math.ceil(size / stored.part_size) &&
    stored.expires_at * 1000 > Date.now() + RESUME_MARGIN_MS
  );
}
