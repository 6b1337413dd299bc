import type { SessionStore } from "./session-store.js";

/** What a direct, remote-URL and multipart upload have in common (the spec's form fields). */
export interface StoreOptions {
  /** Name the file is stored under. Required for inputs without one (Blob, bytes, streams). */
  fileName?: string;
  /** Destination folder path, e.g. `photos/2024`; created as needed. */
  folder?: string;
  tags?: readonly string[] | string;
  /** Your own custom fields; sent as JSON. */
  metadata?: Record<string, unknown>;
  customId?: string;
  /** Append a random suffix to the stored name so names never collide. */
  randomPrefix?: boolean;
  /** Store the file as private: served only through signed URLs (the result's `url` is one). */
  isPrivate?: boolean;
  /**
   * Make the file temporary: the server deletes it this many whole seconds after the upload (60
   * to 31,536,000), and answers 404 for it from then on. The result's `expires_at` says when.
   */
  expiresIn?: number;
}

/** Options that only direct and remote-URL uploads can carry (multipart start has no such fields). */
export interface StoreTimeOptions {
  /**
   * Applied once, when the file is stored: a transform string such as `w_300,h_300,c_fill,f_webp`,
   * sent as written (the server checks it and answers `INVALID_TRANSFORM`). To write it from typed
   * steps, use `buildTransform` from `@trove/sdk/transform`: the grammar then ships only in the
   * bundles that use it, not in every upload widget.
   */
  transform?: string;
  /** URL the service notifies when the upload succeeded. */
  webhookUrl?: string;
}

export interface UploadProgress {
  /** Bytes sent so far. Never decreases, even when a failed part is sent again. */
  loaded: number;
  /** Bytes whose request (the direct upload, or their part) was answered with a 2xx. */
  confirmed: number;
  total: number;
  /** `loaded` as a whole percentage of `total`, 0..100. */
  percent: number;
}

export interface UploadOptions extends StoreOptions, StoreTimeOptions {
  /** MIME type; defaults to the File/Blob type, then a guess from the file name. */
  contentType?: string;
  /** Total bytes of a stream input. Needed when a stream is larger than `multipartThreshold`. */
  size?: number;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Parts sent at once in a multipart upload (default: the client's, 4). */
  concurrency?: number;
  /** Inputs larger than this many bytes use a multipart upload (default: the client's, 8 MiB). */
  multipartThreshold?: number;
  /** Lifetime of the multipart session's presigned part URLs, in seconds (`ttl_seconds`). */
  ttlSeconds?: number;
  /**
   * Where the multipart session is kept so that an upload can resume after a reload or crash.
   * Defaults to the client's `sessionStore`; `null` turns resuming off for this upload. With
   * createUploadClient, a store that brings the resume code: localStorageSessionStore() or
   * resumable(store) (a plain one fails the upload with INVALID_ARGUMENT before sending).
   */
  sessionStore?: SessionStore | null;
  /**
   * Identity of the content for resuming, for inputs that have none of their own (a Blob, bytes).
   * Files and Node file paths are recognised by name, size and modification time already.
   */
  resumeKey?: string;
}

export interface RemoteUploadOptions extends StoreOptions, StoreTimeOptions {
  signal?: AbortSignal;
}
