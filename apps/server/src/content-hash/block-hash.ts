/**
 * Content hash as a tree of fixed-size blocks, so a file's hash can be computed while its bytes
 * stream in, whether they arrive in one request (direct upload) or as parts in any order
 * (multipart), without reading the stored file again.
 *
 * Definition (the "b1" scheme; `hash` in API responses):
 * - Split the content into blocks of BLOCK_SIZE (1 MiB) bytes; the last block may be shorter.
 *   Empty content has no blocks.
 * - Each block's digest is SHA-256 of its bytes.
 * - The content hash is lowercase hex SHA-256 over the concatenated raw 32-byte block digests,
 *   in block order: `sha256(d1 || d2 || ... || dn)`. No prefix, 64 hex characters.
 *
 * It is NOT the SHA-256 of the file (`sha256sum` gives a different value); equal content always
 * gives an equal hash, whatever the upload path. Changing BLOCK_SIZE changes every hash, so it
 * is fixed for the life of a deployment's data (CONTENT_HASH_SCHEME names it).
 *
 * Multipart part sizes are whole multiples of BLOCK_SIZE, so every part starts on a block
 * boundary and a part's block digests are exactly the blocks it covers: combining the parts'
 * digests in part order gives the same hash as hashing the whole stream.
 */
import { createHash, type Hash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";

export const BLOCK_SIZE = 1024 * 1024;
export const CONTENT_HASH_SCHEME = "b1-sha256-tree-1MiB";

/** Hashes a byte stream that starts on a block boundary into per-block SHA-256 digests. */
export class BlockHasher {
  private current: Hash = createHash("sha256");
  private filled = 0;
  private readonly digests: string[] = [];
  private finished = false;
  /** Bytes seen so far. */
  size = 0;

  update(chunk: Uint8Array): void {
    if (this.finished) throw new Error("BlockHasher: update after digest");
    this.size += chunk.length;
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(BLOCK_SIZE - this.filled, chunk.length - offset);
      this.current.update(
        offset === 0 && take === chunk.length ? chunk : chunk.subarray(offset, offset + take),
      );
      this.filled += take;
      offset += take;
      if (this.filled === BLOCK_SIZE) {
        this.digests.push(this.current.digest("hex"));
        this.current = createHash("sha256");
        this.filled = 0;
      }
    }
  }

  /** Finishes the last (possibly short) block; returns every block digest as lowercase hex. */
  digest(): string[] {
    if (!this.finished) {
      if (this.filled > 0) this.digests.push(this.current.digest("hex"));
      this.finished = true;
    }
    return [...this.digests];
  }
}

/** The content hash from block digests in content order (see the scheme above). */
export function combineBlockDigests(digests: readonly string[]): string {
  const tree = createHash("sha256");
  for (const digest of digests) {
    if (!/^[0-9a-f]{64}$/.test(digest)) throw new TypeError(`Not a SHA-256 hex digest: ${digest}`);
    tree.update(Buffer.from(digest, "hex"));
  }
  return tree.digest("hex");
}

/** The content hash of a multipart upload from its parts' block digests (any order given). */
export function combinePartBlockDigests(
  parts: ReadonlyArray<{ number: number; blockDigests: readonly string[] }>,
): string {
  const sorted = [...parts].sort((a, b) => a.number - b.number);
  return combineBlockDigests(sorted.flatMap((part) => part.blockDigests));
}

export interface BlockHashResult {
  /** Content hash (the b1 scheme). */
  hash: string;
  size: number;
  blockDigests: string[];
}

/**
 * A pass-through stream that hashes what flows through it: put it in front of any storage
 * driver (`driver.put(key, body.pipe(t))` or in a `pipeline`) and read `result()` after it
 * ends. Bytes are not copied.
 */
export class BlockHashStream extends Transform {
  private readonly hasher = new BlockHasher();
  private final: BlockHashResult | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hasher.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const blockDigests = this.hasher.digest();
    this.final = { hash: combineBlockDigests(blockDigests), size: this.hasher.size, blockDigests };
    callback();
  }

  /** The result; throws until the stream has ended. */
  result(): BlockHashResult {
    if (!this.final) throw new Error("BlockHashStream: result() before the stream ended");
    return this.final;
  }
}

/** Hashes a whole stream (direct uploads, or re-hashing a stored object). */
export async function hashStream(
  stream: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): Promise<BlockHashResult> {
  const hasher = new BlockHasher();
  for await (const chunk of stream) {
    hasher.update(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  }
  const blockDigests = hasher.digest();
  return { hash: combineBlockDigests(blockDigests), size: hasher.size, blockDigests };
}
