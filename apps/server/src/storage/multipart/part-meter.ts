/**
 * The pass-through every part body flows through on its way to storage: counts bytes, computes
 * the part's SHA-256 and its content-hash block digests, and fails as soon as the body cannot
 * be exactly `expectedSize` bytes long.
 *
 * With `holdLast`, the chunk that completes `expectedSize` is held back until the source has
 * ended, so a downstream HTTP request (Content-Length = expectedSize) is only ever complete when
 * the body really was that long: a longer body fails before the store sees a whole part.
 */
import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { SizeMismatchError } from "../driver.js";
import { BlockHasher } from "./block-hash.js";

export interface PartDigest {
  size: number;
  sha256: string;
  blockDigests: string[];
}

export class PartMeter extends Transform {
  private readonly sha256 = createHash("sha256");
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
    this.sha256.update(chunk);
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
    this.digest = { size: this.size, sha256: this.sha256.digest("hex"), blockDigests: this.blocks.digest() };
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
