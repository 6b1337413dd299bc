/**
 * Multipart uploads on the fs driver, without a concatenation pass:
 *
 *   <root>/.multipart/<uploadId>/data        preallocated (ftruncate) to the object's size;
 *                                            part n is written at (n - 1) * partSize
 *   <root>/.multipart/<uploadId>/meta.json   key, size, partSize, partCount, contentType, createdAt
 *   <root>/.multipart/<uploadId>/parts/<n>.json  written after part n arrived whole
 *
 * Each stored part starts a background flush of `data` (startWriteback), so the disk writes
 * while the rest streams in. `complete` checks the part list against the plan and the part
 * records, fsyncs `data` and renames it onto the key's path (same filesystem, so atomic). All state is on disk, so a part
 * may arrive on one server instance and `complete` run on another sharing the directory.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { BLOCK_SIZE } from "../../content-hash/index.js";
import { assertValidKey } from "../driver.js";
import { InvalidPartError, UploadNotFoundError } from "./errors.js";
import { feed } from "./feed.js";
import { PartMeter } from "./part-meter.js";
import {
  assertCompleteParts,
  assertValidPartRequest,
  assertValidPlan,
  choosePartSizeForParts,
  MIB,
  type PartPlan,
  plannedPartSize,
} from "./part-plan.js";
import type {
  BeginInput,
  CompleteInput,
  MultipartStore,
  PendingUpload,
  PutPartInput,
  StoredPart,
  UploadRef,
} from "./types.js";

export const FS_MULTIPART_DIR = ".multipart";
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const WRITE_BUFFER_BYTES = 1024 * 1024;
/**
 * Part plan of this store: a part costs nothing on disk (it is written at its offset) but one
 * request through Trove, with its signature check, session lookup and part record, which at
 * 5 MiB parts was about half of trove-server's CPU per uploaded byte. About 32 parts per upload,
 * at most 32 MiB each: a 1 GiB file is 32 requests instead of 205, while a retried or paused part
 * re-sends at most 32 MiB and an SDK reading a stream buffers at most `concurrency` parts of it.
 */
const TARGET_PARTS = 32;
const MAX_PREFERRED_PART_SIZE = 32 * MIB;

interface UploadMeta {
  key: string;
  size: number;
  partSize: number;
  partCount: number;
  contentType?: string;
  createdAt: string;
}

interface PartRecord {
  number: number;
  size: number;
  etag: string;
  partHash: string;
  blockDigests: string[];
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT";
}

export class FsMultipartStore implements MultipartStore {
  readonly kind = "fs";
  readonly supportsDirect = false;
  readonly dir: string;
  /** Background flushes of data files in progress, by upload id (see startWriteback). */
  private readonly flushing = new Map<string, Promise<void>>();

  /** `driver`: the fs driver whose root holds the uploads and whose paths they complete to. */
  constructor(private readonly driver: { readonly root: string; localPath(key: string): string }) {
    this.dir = join(driver.root, FS_MULTIPART_DIR);
  }

  planParts(size: number): PartPlan {
    return choosePartSizeForParts(size, { targetParts: TARGET_PARTS, maxPartSize: MAX_PREFERRED_PART_SIZE });
  }

  private uploadDir(uploadId: string): string {
    if (typeof uploadId !== "string" || !UPLOAD_ID.test(uploadId))
      throw new UploadNotFoundError(String(uploadId));
    return join(this.dir, uploadId);
  }

  private async readMeta(key: string, uploadId: string): Promise<UploadMeta> {
    const file = join(this.uploadDir(uploadId), "meta.json");
    let meta: UploadMeta;
    try {
      meta = JSON.parse(await readFile(file, "utf8")) as UploadMeta;
    } catch (error) {
      if (isMissing(error)) throw new UploadNotFoundError(uploadId);
      throw error;
    }
    if (meta.key !== key) throw new UploadNotFoundError(uploadId);
    return meta;
  }

  async begin(input: BeginInput): Promise<{ uploadId: string }> {
    const { key, size, partSize, partCount, contentType } = input;
    this.driver.localPath(key); // validates the key and that it stays inside root
    assertValidPlan({ size, partSize, partCount }, { minPartSize: BLOCK_SIZE });
    const uploadId = randomBytes(16).toString("hex");
    const dir = join(this.dir, uploadId);
    await mkdir(join(dir, "parts"), { recursive: true });
    try {
      const meta: UploadMeta = { key, size, partSize, partCount, createdAt: new Date().toISOString() };
      if (contentType !== undefined) meta.contentType = contentType;
      const data = await open(join(dir, "data"), "wx");
      try {
        await data.truncate(size);
      } finally {
        await data.close();
      }
      // meta.json last: an upload without it is unusable and swept as an orphan.
      await writeFile(join(dir, "meta.json"), JSON.stringify(meta), { flag: "wx" });
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    return { uploadId };
  }

  async putPart(input: PutPartInput): Promise<StoredPart> {
    const { key, uploadId, partNumber, partSize, body, expectedSize, signal } = input;
    assertValidKey(key);
    assertValidPartRequest({ partNumber, partSize, expectedSize });
    const meta = await this.readMeta(key, uploadId);
    if (partSize !== meta.partSize) {
      throw new InvalidPartError(
        `partSize ${partSize} differs from the upload's ${meta.partSize}`,
        partNumber,
      );
    }
    if (partNumber > meta.partCount) {
      throw new InvalidPartError(`The upload has ${meta.partCount} parts`, partNumber);
    }
    const planned = plannedPartSize(meta.size, meta.partSize, partNumber);
    if (expectedSize !== planned) {
      throw new InvalidPartError(
        `Part ${partNumber} must be ${planned} bytes, not ${expectedSize}`,
        partNumber,
      );
    }
    const dir = this.uploadDir(uploadId);
    const recordFile = join(dir, "parts", `${partNumber}.json`);
    // The bytes are overwritten in place: from here on an earlier upload of this part is gone.
    await rm(recordFile, { force: true });

    const meter = new PartMeter(expectedSize);
    const offset = (partNumber - 1) * meta.partSize;
    const detach = feed(body, meter);
    try {
      // A 1 MiB buffer lets chunks that arrive while a write is in flight go out together in
      // one writev: fewer thread-pool round trips per part than one write per 64 KiB chunk.
      const out = createWriteStream(join(dir, "data"), {
        flags: "r+",
        start: offset,
        highWaterMark: WRITE_BUFFER_BYTES,
      });
      await pipeline(meter, out, signal ? { signal } : {});
    } catch (error) {
      detach();
      meter.destroy();
      if (isMissing(error)) throw new UploadNotFoundError(uploadId);
      throw meter.failure ?? error;
    }
    const digest = meter.result();
    const record: PartRecord = {
      number: partNumber,
      size: digest.size,
      etag: digest.partHash,
      partHash: digest.partHash,
      blockDigests: digest.blockDigests,
    };
    const tmp = `${recordFile}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify(record));
      await rename(tmp, recordFile);
    } catch (error) {
      await rm(tmp, { force: true });
      if (isMissing(error)) throw new UploadNotFoundError(uploadId);
      throw error;
    }
    this.startWriteback(uploadId, join(dir, "data"));
    return { partNumber, ...digest, etag: record.etag };
  }

  /**
   * Starts flushing the data file to disk in the background (one flush per upload at a time), so
   * that the fsync at `complete` finds only the last parts unwritten: with the kernel's default
   * dirty limits a 1 GiB upload otherwise stays in the page cache until complete, whose fsync then
   * took about 1.5 s of the upload's wall time. Nothing waits on it and its failures are ignored:
   * durability comes from complete's own fsync.
   */
  private startWriteback(uploadId: string, data: string): void {
    if (this.flushing.has(uploadId)) return;
    const flush = (async () => {
      const handle = await open(data, "r+");
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
    })()
      .catch(() => undefined)
      .finally(() => this.flushing.delete(uploadId));
    this.flushing.set(uploadId, flush);
  }

  async complete(input: CompleteInput): Promise<{ size: number }> {
    const { key, uploadId, parts } = input;
    const target = this.driver.localPath(key);
    const meta = await this.readMeta(key, uploadId);
    const { sorted } = assertCompleteParts(parts, meta);
    const dir = this.uploadDir(uploadId);

    // Every listed part must have arrived whole, with the ETag the caller recorded.
    for (let i = 0; i < sorted.length; i += 256) {
      await Promise.all(
        sorted.slice(i, i + 256).map(async (part) => {
          const raw = await readFile(join(dir, "parts", `${part.number}.json`), "utf8").catch((error) => {
            if (isMissing(error)) return null;
            throw error;
          });
          const record = raw === null ? null : (JSON.parse(raw) as PartRecord);
          if (!record || record.etag !== part.etag || record.size !== part.size) {
            throw new InvalidPartError(`Part ${part.number} was not uploaded with that ETag`, part.number);
          }
        }),
      );
    }

    const data = join(dir, "data");
    try {
      const handle = await open(data, "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await mkdir(dirname(target), { recursive: true });
      await rename(data, target);
    } catch (error) {
      if (isMissing(error)) throw new UploadNotFoundError(uploadId);
      throw error;
    }
    await syncDirectory(dirname(target));
    await rm(dir, { recursive: true, force: true });
    return { size: meta.size };
  }

  async abort({ key, uploadId }: UploadRef): Promise<void> {
    const dir = this.uploadDir(uploadId);
    const raw = await readFile(join(dir, "meta.json"), "utf8").catch((error) => {
      if (isMissing(error)) return null;
      throw error;
    });
    // Never discard another key's upload; without meta.json (gone, or begin() died half-way)
    // there is nothing to protect, and removing leftovers keeps abort idempotent.
    if (raw !== null && (JSON.parse(raw) as UploadMeta).key !== key) throw new UploadNotFoundError(uploadId);
    await rm(dir, { recursive: true, force: true });
  }

  async *listPending(): AsyncIterable<PendingUpload> {
    const entries = await readdir(this.dir).catch((error) => {
      if (isMissing(error)) return [] as string[];
      throw error;
    });
    for (const uploadId of entries) {
      if (!UPLOAD_ID.test(uploadId)) continue;
      const raw = await readFile(join(this.dir, uploadId, "meta.json"), "utf8").catch(() => null);
      if (raw === null) {
        // Either begin() died before writing meta.json, or it is writing it right now: date the
        // directory by its own mtime, so the sweep's grace protects an upload being created.
        const dir = await stat(join(this.dir, uploadId)).catch(() => null);
        if (dir) yield { uploadId, key: "", size: 0, createdAt: dir.mtime };
        continue;
      }
      const meta = JSON.parse(raw) as UploadMeta;
      yield { uploadId, key: meta.key, size: meta.size, createdAt: new Date(meta.createdAt) };
    }
  }
}

async function syncDirectory(path: string): Promise<void> {
  // Makes the rename durable; not every platform can fsync a directory, so best effort.
  try {
    const handle = await open(path, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* best effort */
  }
}
