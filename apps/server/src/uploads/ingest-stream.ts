import { Transform, type TransformCallback } from "node:stream";
import { BlockHasher, combineBlockDigests } from "../content-hash/index.js";
import { SNIFF_HEAD_BYTES } from "../media/sniff-content.js";
import { KeptBytes } from "./kept-bytes.js";

export interface IngestResult {
  /**
   * Content hash, the b1 block-tree scheme (src/content-hash/block-hash.ts). Computed on
   * the first call when hashing was deferred (see IngestOptions.deferHash), then remembered.
   */
  hash: () => string;
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
  /**
   * Do not hash a kept body as it arrives; hash it from memory if `result().hash()` is called.
   * For an upload whose stored bytes may not be the ones received (a store-time transform's
   * output, an image stripped of its metadata: hashed instead), so the received ones are never
   * hashed (2 ms of the main thread for a 4 MB original). A body that outgrows `keepUpTo` is
   * hashed as usual from then on (what was kept first).
   */
  deferHash?: boolean;
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
  /** True while the kept bytes are not hashed yet (deferHash). */
  private hashDeferred: boolean;
  private size = 0;
  private final: IngestResult | undefined;

  constructor(options: IngestOptions = {}) {
    super();
    const keepUpTo = options.keepUpTo ?? 0;
    if (keepUpTo > 0) this.kept = new KeptBytes(keepUpTo, options.expectedSize);
    this.hashDeferred = this.kept !== undefined && options.deferHash === true;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.headLength < SNIFF_HEAD_BYTES) {
      const take = chunk.subarray(0, SNIFF_HEAD_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(take));
      this.headLength += take.length;
    }
    if (this.kept) {
      // What is kept but not hashed yet; append() lets go of it once the body outgrows the limit.
      const unhashed = this.hashDeferred ? this.kept.bytes() : undefined;
      if (!this.kept.append(chunk)) {
        this.kept = undefined;
        // Too long to keep: hash what was kept, then every chunk as it comes.
        if (unhashed) this.hasher.update(unhashed);
        this.hashDeferred = false;
      }
    }
    if (!this.hashDeferred) this.hasher.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const kept = this.kept?.bytes();
    const hasher = this.hasher;
    const unhashed = this.hashDeferred ? kept : undefined;
    let hash: string | undefined;
    this.final = {
      hash: () => {
        if (hash === undefined) {
          if (unhashed) hasher.update(unhashed);
          hash = combineBlockDigests(hasher.digest());
        }
        return hash;
      },
      size: this.size,
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
