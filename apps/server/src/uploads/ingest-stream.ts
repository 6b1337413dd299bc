import { Transform, type TransformCallback } from "node:stream";
import { SNIFF_HEAD_BYTES } from "../media/sniff-content.js";
import { BlockHasher, combineBlockDigests } from "../storage/multipart/block-hash.js";
import { KeptBytes } from "./kept-bytes.js";

export interface IngestResult {
  /** Content hash, the b1 block-tree scheme (src/storage/multipart/block-hash.ts). */
  hash: string;
  size: number;
  /** The first SNIFF_HEAD_BYTES (or all bytes, if fewer), for content sniffing without a re-read. */
  head: Buffer;
  /** The whole content, when it was at most `keepUpTo` bytes (copied in as it arrived). */
  bytes: (() => Buffer) | undefined;
}

export interface IngestOptions {
  /**
   * Keep references to the chunks of a body up to this many bytes, so that the media pipeline
   * can read a small image from memory instead of opening the stored object again (default 0:
   * keep nothing). Memory is bounded by concurrent uploads × this.
   */
  keepUpTo?: number;
  /** The body's size if known, or an upper bound (a request's Content-Length): sizes the kept copy. */
  expectedSize?: number;
}

/**
 * A pass-through stream placed between an upload's body and `storage.put`: hashes the bytes
 * with the same block-tree hash multipart uploads use (so equal content gets an equal `hash`
 * whichever way it arrived) and keeps the head for sniffing. Bytes are not copied, except the
 * first 4100 and a kept body (into one buffer as it arrives: see KeptBytes).
 */
export class IngestStream extends Transform {
  private readonly hasher = new BlockHasher();
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private kept: KeptBytes | undefined;
  private final: IngestResult | undefined;

  constructor(options: IngestOptions = {}) {
    super();
    const keepUpTo = options.keepUpTo ?? 0;
    if (keepUpTo > 0) this.kept = new KeptBytes(keepUpTo, options.expectedSize);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hasher.update(chunk);
    if (this.headLength < SNIFF_HEAD_BYTES) {
      const take = chunk.subarray(0, SNIFF_HEAD_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(take));
      this.headLength += take.length;
    }
    if (this.kept && !this.kept.append(chunk)) this.kept = undefined;
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const kept = this.kept?.bytes();
    this.final = {
      hash: combineBlockDigests(this.hasher.digest()),
      size: this.hasher.size,
      head: Buffer.concat(this.headChunks, this.headLength),
      bytes: kept && (() => kept),
    };
    this.kept = undefined;
    callback();
  }

  /** Throws until the stream has ended. */
  result(): IngestResult {
    if (!this.final) throw new Error("IngestStream: result() before the stream ended");
    return this.final;
  }
}
