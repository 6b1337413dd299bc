import { isRecord } from "../is-record.js";

/** A multipart session as kept between page loads or process runs. */
export interface StoredUploadSession {
  version: 1;
  session_id: string;
  part_size: number;
  /** The presigned part URLs, in order. */
  parts: string[];
  /** Unix seconds. */
  expires_at: number;
  /** Indexes of the parts whose upload was answered with a 2xx. */
  completed: number[];
  /** Checked on resume against the input, together with the key. */
  size: number;
  file_name: string;
  /** When the session was started, ms since the epoch (absent in sessions older SDKs stored). */
  started_at?: number;
}

/**
 * Where multipart sessions are kept for resuming. Any async key-value store works (IndexedDB,
 * a database, Redis); the SDK ships `localStorageSessionStore()` for browsers and
 * `fileSessionStore(path)` in Node (`@trove/sdk`). Failures of the store never fail an upload:
 * resuming is best effort.
 */
export interface SessionStore {
  get(key: string): Promise<StoredUploadSession | undefined>;
  set(key: string, session: StoredUploadSession): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every session kept, for `client.listStoredSessions()`; a store without it lists nothing. */
  list?(): Promise<Array<[key: string, session: StoredUploadSession]>>;
}

/** Stores hold JSON written by other versions or tampered with: check before trusting it. */
export function isStoredUploadSession(value: unknown): value is StoredUploadSession {
  return (
    isRecord(value) &&
    value.version === 1 &&
    typeof value.session_id === "string" &&
    typeof value.part_size === "number" &&
    Array.isArray(value.parts) &&
    value.parts.every((url) => typeof url === "string") &&
    typeof value.expires_at === "number" &&
    Array.isArray(value.completed) &&
    value.completed.every((index) => Number.isInteger(index)) &&
    typeof value.size === "number" &&
    typeof value.file_name === "string" &&
    (value.started_at === undefined || typeof value.started_at === "number")
  );
}
