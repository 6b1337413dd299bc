import { type FileVersion, readFileRange } from "./file-range.js";

/**
 * A Blob whose bytes are a range of a file, read only through its public methods: `stream()`
 * gives 1 MiB chunks straight from the file (file-range.ts). It is what `slice()` of a file
 * path's Blob returns (node-upload-input.ts), so multipart parts of a path reach fetch as Blobs,
 * with their length known (Content-Length, which presigned S3 part URLs need), and fetch pulls
 * the bytes through `stream()`. Node's own file-backed Blob would stream 64 KiB chunks and copy
 * each, about 2.5× the client's CPU per byte on loopback.
 *
 * Its internal data is empty: code that reads a Blob's internal handle instead of its methods
 * (`new Blob([it])`, FormData in some runtimes) would see no bytes, so it is only ever handed to
 * fetch as a part body.
 */
export class FileRangeBlob extends Blob {
  constructor(
    private readonly path: string,
    private readonly start: number,
    private readonly end: number,
    private readonly version: FileVersion,
  ) {
    super([]);
  }

  override get size(): number {
    return this.end - this.start;
  }

  override get type(): string {
    return "";
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return readFileRange(this.path, this.start, this.end, this.version) as ReadableStream<
      Uint8Array<ArrayBuffer>
    >;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = new Uint8Array(this.size);
    let offset = 0;
    for await (const chunk of this.stream() as unknown as AsyncIterable<Uint8Array>) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes.buffer;
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  override slice(start = 0, end = this.size): FileRangeBlob {
    const [from, to] = [clampOffset(start, this.size), clampOffset(end, this.size)];
    return new FileRangeBlob(this.path, this.start + from, this.start + Math.max(from, to), this.version);
  }
}

/** Blob.slice's offsets: negative counts from the end, both clamped to [0, size]. */
export function clampOffset(offset: number, size: number): number {
  return Math.min(size, Math.max(0, offset < 0 ? size + offset : offset));
}
