/**
 * The pass-through every part body flows through on its way to storage: counts bytes, computes
 * the part's content-hash block digests, and fails as soon as the body cannot be exactly
 * `expectedSize` bytes long.
 *
 * Each byte is hashed once: the part's own hash (`partHash`, the fs part ETag) is the content
 * hash of the part's bytes, derived from its block digests (block-hash.ts), not a second
 * SHA-256 pass over the bytes; that pass cost as much CPU as the block digests themselves.
 *
 * With `holdLast`, the chunk that completes `expectedSize` is held back until the source has
 * ended, so a downstream HTTP request (Content-Length = expectedSize) is only ever complete when
 * the body really was that long: a longer body fails before the store sees a whole part.
 */
import { Transform, type TransformCallback } from "node:stream";
import { BlockHasher, combineBlockDigests } from "../../content-hash/index.js";
import { SizeMismatchError } from "../driver.js";

export interface PartDigest {
  size: number;
  /** The content hash (b1 scheme) of the part's bytes: equal bytes, equal hash. */
  partHash: string;
  /** SHA-256 hex of each BLOCK_SIZE block of the part, in order. */
  blockDigests: string[];
}

export class PartMeter extends Transform {
  private readonly blocks = new BlockHasher();
  private held: Buffer | undefined;
  private digest: PartDigest | undefined;
  /** Bytes accepted so far. */
  size = 0;
  /** The error this meter failed with, if any. */
  failure: Error | undefined;

  constructor(
    private readonly expectedSize: number,
    private readonly options: { holdLast?: boolean } = {},
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.size + chunk.length > this.expectedSize) {
      this.failure = new SizeMismatchError(this.expectedSize, this.size + chunk.length);
      callback(this.failure);
      return;
    }
    this.size += chunk.length;
    this.blocks.update(chunk);
    if (this.options.holdLast && this.size === this.expectedSize && chunk.length > 0) {
      this.held = chunk;
      callback();
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.size !== this.expectedSize) {
      this.failure = new SizeMismatchError(this.expectedSize, this.size);
      callback(this.failure);
      return;
    }
    const blockDigests = this.blocks.digest();
    this.digest = { size: this.size, partHash: combineBlockDigests(blockDigests), blockDigests };
    if (this.held) this.push(this.held);
    this.held = undefined;
    callback();
  }

  /** Size and digests once the whole body has passed; throws before that. */
  result(): PartDigest {
    if (!this.digest) throw this.failure ?? new Error("PartMeter: body not finished");
    return this.digest;
  }
}
