import { Transform, type TransformCallback } from "node:stream";
import { SNIFF_HEAD_BYTES } from "../media/sniff-content.js";
import { BlockHasher, combineBlockDigests } from "../storage/multipart/block-hash.js";

export interface IngestResult {
  /** Content hash, the b1 block-tree scheme (src/storage/multipart/block-hash.ts). */
  hash: string;
  size: number;
  /** The first SNIFF_HEAD_BYTES (or all bytes, if fewer), for content sniffing without a re-read. */
  head: Buffer;
}

/**
 * A pass-through stream placed between an upload's body and `storage.put`: hashes the bytes
 * with the same block-tree hash multipart uploads use (so equal content gets an equal `hash`
 * whichever way it arrived) and keeps the head for sniffing. Bytes are not copied, except the
 * first 4100.
 */
export class IngestStream extends Transform {
  private readonly hasher = new BlockHasher();
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private final: IngestResult | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hasher.update(chunk);
    if (this.headLength < SNIFF_HEAD_BYTES) {
      const take = chunk.subarray(0, SNIFF_HEAD_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(take));
      this.headLength += take.length;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.final = {
      hash: combineBlockDigests(this.hasher.digest()),
      size: this.hasher.size,
      head: Buffer.concat(this.headChunks, this.headLength),
    };
    callback();
  }

  /** Throws until the stream has ended. */
  result(): IngestResult {
    if (!this.final) throw new Error("IngestStream: result() before the stream ended");
    return this.final;
  }
}
