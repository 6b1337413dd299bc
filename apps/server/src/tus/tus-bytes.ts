/**
 * Where a tus upload's bytes go while they arrive, per storage driver (the store,
 * ./tus-store.ts, records the offset; a sink only stores):
 *
 * - ./tus-fs-bytes.ts, drivers whose objects are local files: written in place into a temporary
 *   object at the upload's offset, renamed onto the file's key at the end; hashed by the store
 *   as the chunks pass.
 * - ./tus-s3-bytes.ts, drivers with multipart uploads (s3): the driver's multipart upload, in
 *   parts of the planned size; bytes short of a whole part wait in a tail object. The parts'
 *   block digests give the content hash (`contentHash`).
 */
import type { Readable } from "node:stream";
import type { TusUpload } from "../generated/prisma/client.js";

/** A stored part of a multipart-backed upload, as recorded on its row. */
export interface TusPart {
  number: number;
  etag: string;
  size: number;
  blockDigests: string[];
}

export interface WriteOutcome {
  /** Bytes now stored after the offset the write began at (kept even when the body broke). */
  written: number;
  /** What broke the body, if it broke; the bytes before it are stored. */
  error?: unknown;
  /** Every part stored so far (multipart-backed sinks), to record on the row. */
  parts?: TusPart[];
}

export interface TusBytes {
  /** The key the bytes are written at while the upload is open. */
  keyFor(workspaceId: string, uploadId: string, finalKey: string): string;
  /** Prepares storage for a new upload; what it returns is recorded on the row. */
  create(row: TusUpload): Promise<{ storageUploadId?: string }>;
  /** Writes `body` at `offset`, calling `onChunk` for each chunk as it is stored. */
  write(
    row: TusUpload,
    offset: number,
    body: AsyncIterable<Buffer>,
    onChunk: (chunk: Buffer) => void,
  ): Promise<WriteOutcome>;
  /** The first `end` bytes stored (hashed again by a process that did not see them arrive). */
  readPrefix?(row: TusUpload, end: number): Promise<Readable>;
  /** The content hash from what the sink recorded, when it hashes by itself. */
  contentHash?(row: TusUpload): string;
  /** Makes the whole upload the object at `finalKey`; safe to call again. */
  finish(row: TusUpload, finalKey: string): Promise<void>;
  /** Deletes what the upload stored; nothing there is not an error. */
  remove(row: TusUpload): Promise<void>;
}

/** The temporary key of an upload's bytes (no upload or sweep of stored files uses `tus/`). */
export function tusTempKey(workspaceId: string, uploadId: string): string {
  return `tus/${workspaceId}/${uploadId}`;
}
