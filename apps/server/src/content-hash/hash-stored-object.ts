/**
 * The content hash of an object already in storage, read as a few ranges at once:
 *
 *   const { hash, size } = await hashStoredObject(storage, key);   // or ObjectNotFoundError
 *
 * For an object the server never saw stream in (a direct-mode multipart upload, assembled by the
 * storage from parts the client sent to it). The b1 tree (./block-hash.ts) is made of 1 MiB
 * blocks hashed on their own, so ranges that start on block boundaries can be read and hashed
 * side by side and their block digests joined in order: the same hash as one pass over the
 * object. One GET of an object store is paced by a single connection (from s3rver here, a 1 GiB
 * read-back took 4.1 to 5.2 s as one GET and 2.8 to 4.4 s as four); several ranges are how
 * object-store clients read large objects fast.
 *
 * Each range must yield exactly its length: a shorter or longer read (the object replaced while
 * it was read) is an error, never a hash of other bytes.
 */
import type { Readable } from "node:stream";
import { type ByteRange, ObjectNotFoundError, type StorageDriver } from "../storage/driver.js";
import { BLOCK_SIZE, BlockHasher, type BlockHashResult, combineBlockDigests } from "./block-hash.js";

/** Ranges read at once: enough to fill a few connections, few enough to keep memory small. */
const HASH_READ_RANGES = 4;

/** Contiguous ranges of whole blocks (the last may end short) covering `size` bytes. */
export function blockAlignedRanges(size: number, count: number): ByteRange[] {
  const blocks = Math.ceil(size / BLOCK_SIZE);
  const perRange = Math.ceil(blocks / Math.max(1, Math.min(count, blocks)));
  const ranges: ByteRange[] = [];
  for (let start = 0; start < size; start += perRange * BLOCK_SIZE) {
    ranges.push({ start, end: Math.min(size, start + perRange * BLOCK_SIZE) - 1 });
  }
  return ranges;
}

export async function hashStoredObject(
  storage: Pick<StorageDriver, "get" | "stat">,
  key: string,
  ranges = HASH_READ_RANGES,
): Promise<BlockHashResult> {
  const stat = await storage.stat(key);
  if (!stat) throw new ObjectNotFoundError(key);
  const opened: Readable[] = [];
  let failed = false;
  const hashRange = async (range: ByteRange): Promise<string[]> => {
    const body = await storage.get(key, { range });
    opened.push(body);
    // Another range already failed: the result is thrown away, so read nothing.
    if (failed) body.destroy();
    const hasher = new BlockHasher();
    for await (const chunk of body) hasher.update(chunk as Buffer);
    const expected = range.end - range.start + 1;
    if (hasher.size !== expected) {
      throw new Error(
        `${key}: bytes ${range.start}-${range.end} read as ${hasher.size} bytes, not ${expected}; the object changed while it was hashed`,
      );
    }
    return hasher.digest();
  };
  let parts: string[][];
  try {
    parts = await Promise.all(blockAlignedRanges(stat.size, ranges).map(hashRange));
  } catch (error) {
    // One range failed: stop reading the others (and any still being opened).
    failed = true;
    for (const body of opened) body.destroy();
    throw error;
  }
  const blockDigests = parts.flat();
  return { hash: combineBlockDigests(blockDigests), size: stat.size, blockDigests };
}
