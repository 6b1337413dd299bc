/**
 * @tus/server's DataStore over Trove's storage drivers and the `tus_uploads` table: the table
 * holds what any instance, or a restarted one, needs to resume an upload (offset, length,
 * metadata, credential, expiry); the bytes go through a sink of ./tus-bytes.ts.
 *
 * Content hash: every chunk is hashed as it is written (the b1 block tree,
 * src/content-hash/), by a hasher kept in this process between PATCHes. A hasher cannot be
 * stored (Node's SHA-256 state is not serializable), so a PATCH that finds none at its offset (a
 * resume on another instance, or after a restart) first hashes the bytes already stored, once,
 * and goes on from there. The file is never read again at the end.
 *
 * The row is created by the creation hook (./tus-hooks.ts) with the credential; `create` here
 * only makes the empty object.
 */
import type { Readable } from "node:stream";
import { DataStore, ERRORS, Upload } from "@tus/utils";
import { BlockHasher, combineBlockDigests } from "../content-hash/index.js";
import type { Prisma, PrismaClient, TusUpload } from "../generated/prisma/client.js";
import type { TusBytes } from "./tus-bytes.js";
import type { TusMetadata } from "./tus-fields.js";

/** What the server supports besides the core protocol (checksum is not offered). */
export const TUS_EXTENSIONS = ["creation", "creation-with-upload", "termination", "expiration"];

export interface TusStoreDeps {
  db: Pick<PrismaClient, "tusUpload">;
  bytes: TusBytes;
  /** TROVE_TUS_EXPIRY_SECONDS. */
  expirySeconds: number;
}

/** A tus error object (`{ status_code, body }`) rather than a broken stream. */
function isTusError(error: unknown): boolean {
  return typeof error === "object" && error !== null && "status_code" in error;
}

export class TroveTusStore extends DataStore {
  /** In-process hashers by upload id, each at the offset it has seen. */
  readonly hashers = new Map<string, BlockHasher>();

  constructor(readonly deps: TusStoreDeps) {
    super();
    this.extensions = TUS_EXTENSIONS;
  }

  async row(id: string): Promise<TusUpload> {
    const row = await this.deps.db.tusUpload.findUnique({ where: { id } });
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return row;
  }

  override async create(upload: Upload): Promise<Upload> {
    const row = await this.row(upload.id);
    const prepared = await this.deps.bytes.create(row);
    if (prepared.storageUploadId) {
      await this.deps.db.tusUpload.update({
        where: { id: row.id },
        data: { storageUploadId: prepared.storageUploadId },
      });
    }
    if (!this.deps.bytes.contentHash) this.hashers.set(upload.id, new BlockHasher());
    upload.creation_date = row.createdAt.toISOString();
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.row(id);
    return new Upload({
      id,
      size: Number(row.uploadLength),
      offset: Number(row.uploadOffset),
      metadata: row.metadata as TusMetadata as Record<string, string | null>,
      creation_date: row.createdAt.toISOString(),
    });
  }

  override async write(body: Readable, id: string, offset: number): Promise<number> {
    const row = await this.row(id);
    const length = Number(row.uploadLength);
    if (row.completedFileId) {
      // Already a file: nothing more can be written (the limiter allowed no byte past the length).
      for await (const _ of body) {
        // drain
      }
      return length;
    }
    // A sink that hashes by itself (multipart parts' digests) needs no hasher here.
    const hasher = this.deps.bytes.contentHash ? undefined : await this.hasherAt(row, offset);
    const outcome = await this.deps.bytes.write(row, offset, body, (chunk) => hasher?.update(chunk));
    const reached = offset + outcome.written;
    // Conditional: a PATCH on another instance that moved the offset first wins (409 here).
    const { count } = await this.deps.db.tusUpload.updateMany({
      where: { id, uploadOffset: BigInt(offset), completedFileId: null },
      data: {
        uploadOffset: BigInt(reached),
        ...(outcome.parts ? { parts: outcome.parts as unknown as Prisma.InputJsonValue } : {}),
      },
    });
    if (count !== 1) {
      this.hashers.delete(id);
      throw ERRORS.INVALID_OFFSET;
    }
    if (hasher) this.hashers.set(id, hasher);
    // A body that broke off (the client went away) keeps what arrived: the client resumes there.
    // One that went past the upload's length is refused.
    if (outcome.error !== undefined && isTusError(outcome.error)) throw outcome.error;
    return reached;
  }

  /** The content hash of a whole upload (its row read after the last byte was recorded). */
  async contentHash(row: TusUpload): Promise<string> {
    const { bytes } = this.deps;
    if (bytes.contentHash) return bytes.contentHash(row);
    const hasher = await this.hasherAt(row, Number(row.uploadLength));
    this.hashers.delete(row.id);
    return combineBlockDigests(hasher.digest());
  }

  /** The hasher of the bytes before `offset`: this process's, or one fed from storage once. */
  async hasherAt(row: TusUpload, offset: number): Promise<BlockHasher> {
    const kept = this.hashers.get(row.id);
    if (kept && kept.size === offset) return kept;
    this.hashers.delete(row.id);
    const hasher = new BlockHasher();
    const { readPrefix } = this.deps.bytes;
    if (!readPrefix) throw new Error("tus: this sink can neither hash nor read its bytes");
    for await (const chunk of await readPrefix(row, offset)) {
      hasher.update(chunk as Buffer);
    }
    return hasher;
  }

  override async remove(id: string): Promise<void> {
    const row = await this.row(id);
    if (row.completedFileId) throw ERRORS.INVALID_TERMINATION;
    await this.deps.bytes.remove(row);
    await this.deps.db.tusUpload.deleteMany({ where: { id, completedFileId: null } });
    this.hashers.delete(id);
  }

  override getExpiration(): number {
    return this.deps.expirySeconds * 1000;
  }
}
