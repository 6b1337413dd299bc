/**
 * Storage driver interface: where file bytes live. Drivers: `fs` (./fs-driver.ts, a directory;
 * the embedded default) and `s3` (./s3-driver.ts). Everything streams; nothing holds a whole
 * object in memory.
 *
 * Optional capabilities are declared by the driver, never inferred from its class, so a new
 * driver gains them by implementing them: `multipart` (uploads in parts, ./multipart/),
 * `localPath` (objects are files on this machine, which libvips may open itself) and `open` (an
 * object's size and bytes in one call).
 *
 * Object keys are driver-neutral strings built by the server, never taken from user paths alone:
 * `objectKey(workspaceId, fileId, name)` -> `<workspaceId>/<fileId>/<safe name>`. Every driver must
 * reject keys that fail `assertValidKey` (empty segments, `.`/`..`, absolute, backslashes, NUL,
 * control characters), so no key can escape the driver's root.
 */
import type { Readable } from "node:stream";
import type { MultipartStore } from "./multipart/types.js";

export interface PutResult {
  key: string;
  /** Bytes written. */
  size: number;
}

export interface PutOptions {
  /** When given, a different byte count fails the put (and nothing is stored). */
  expectedSize?: number;
  /** Stops writing (and stores nothing) once more bytes than this arrive. */
  maxBytes?: number;
  contentType?: string;
  signal?: AbortSignal;
  /**
   * The key was made for this put (it holds a new file id) and no reader can know it before the
   * caller records it: the fs driver writes the object in place instead of into a temporary file
   * it then renames (half the filesystem work), and the put fails if the key exists. A key that
   * may already name an object (a transform's output replacing the original) must not set it.
   */
  newKey?: boolean;
}

export interface ObjectStat {
  key: string;
  size: number;
  modifiedAt: Date;
}

export interface OpenedObject {
  size: number;
  body: Readable;
}

/** Inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StorageDriver {
  readonly kind: string;
  /**
   * Streams `body` (or writes bytes already in memory) into the object, replacing any existing
   * one atomically.
   */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<PutResult>;
  /** A stream of the object (or of `range`); rejects with `ObjectNotFoundError` when missing. */
  get(key: string, options?: { range?: ByteRange }): Promise<Readable>;
  /**
   * The object's size and a stream of all of it, found and opened in one call (a file opened once,
   * one S3 GET) instead of `stat` then `get`; null when missing. The caller reads or destroys
   * `body`. Optional, so drivers written before it still work: read through `openObject`
   * (./open-object.ts), which falls back to `stat` then `get`.
   */
  open?(key: string): Promise<OpenedObject | null>;
  /** Size and modification time, or null when missing. */
  stat(key: string): Promise<ObjectStat | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes the object; deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under `prefix` (a key prefix, e.g. `<workspaceId>/`), in no particular order. */
  list(prefix: string): AsyncIterable<ObjectStat>;
  /** Multipart uploads on this store; absent when the driver cannot store an upload in parts. */
  readonly multipart?: MultipartStore;
  /**
   * The absolute path of the object's file, for drivers whose objects are local files; throws
   * `InvalidObjectKeyError` like every other method. Absent: read the object with `get`.
   */
  localPath?(key: string): string;
}

export class ObjectNotFoundError extends Error {
  override name = "ObjectNotFoundError";
  readonly code = "ENOENT";
  constructor(readonly key: string) {
    super(`Object not found: ${key}`);
  }
}

export class InvalidObjectKeyError extends Error {
  override name = "InvalidObjectKeyError";
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid object key (${reason})`);
  }
}

export class SizeMismatchError extends Error {
  override name = "SizeMismatchError";
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Expected ${expected} bytes, received ${actual}`);
  }
}

export class ObjectTooLargeError extends Error {
  override name = "ObjectTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`Object exceeds ${maxBytes} bytes`);
  }
}

const MAX_KEY_LENGTH = 1024;

/** Throws `InvalidObjectKeyError` unless `key` is a safe relative key (`a/b/c.jpg`). */
export function assertValidKey(key: string, { allowPrefix = false } = {}): void {
  if (typeof key !== "string" || key.length === 0) throw new InvalidObjectKeyError(String(key), "empty");
  if (key.length > MAX_KEY_LENGTH) throw new InvalidObjectKeyError(key, "too long");
  if (key.includes("\0")) throw new InvalidObjectKeyError(key, "NUL character");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new InvalidObjectKeyError(key, "control character");
  if (key.includes("\\")) throw new InvalidObjectKeyError(key, "backslash");
  if (key.startsWith("/") || /^[A-Za-z]:/.test(key)) throw new InvalidObjectKeyError(key, "absolute");
  const segments = key.split("/");
  // A prefix may end with "/" (`<workspaceId>/`); keys may not.
  if (allowPrefix && segments[segments.length - 1] === "") segments.pop();
  for (const segment of segments) {
    if (segment === "") throw new InvalidObjectKeyError(key, "empty segment");
    if (segment === "." || segment === "..") throw new InvalidObjectKeyError(key, "dot segment");
  }
}

/**
 * A storage-safe file name from a user-supplied one: keeps letters, digits, `.`, `-`, `_`,
 * replaces anything else with `_`, no leading dots, at most 200 characters, never empty.
 */
export function safeObjectName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  let safe = base
    .normalize("NFKC")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^\.+/, "")
    .slice(-200);
  if (safe === "" || safe === "." || safe === "..") safe = "file";
  return safe;
}

/** `<workspaceId>/<fileId>/<safe name>`: the object key of a stored file. */
export function objectKey(workspaceId: string, fileId: string, name: string): string {
  const key = `${workspaceId}/${fileId}/${safeObjectName(name)}`;
  assertValidKey(key);
  return key;
}
