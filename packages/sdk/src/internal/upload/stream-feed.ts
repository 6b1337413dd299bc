import { invalidArgument } from "../invalid-argument.js";
import { chunkReader } from "./chunk-reader.js";
import type { Part, PartFeed } from "./part.js";

/**
 * Streams: read in order, one part_size buffer per part. The engine asks for a part only when a
 * slot is free, so at most `concurrency` buffers are alive (they are kept until their part is
 * confirmed, for retries). Calls are serialised because a stream has one reader.
 */
export function streamFeed(
  stream: ReadableStream<Uint8Array>,
  partSize: number,
  size: number,
  signal: AbortSignal,
): PartFeed {
  // A worker waiting on a slow stream must not hold a stopped upload: the reader ends on abort.
  const chunks = chunkReader(stream, signal);
  const count = Math.ceil(size / partSize);
  let index = 0;
  let pending: Uint8Array | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  async function read(): Promise<Part | undefined> {
    if (index >= count) {
      if (pending || (await chunks.next()))
        throw invalidArgument(`The stream is longer than size (${size} bytes)`);
      return undefined;
    }
    const length = Math.min(partSize, size - index * partSize);
    const buffer = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const chunk = pending ?? (await chunks.next());
      if (!chunk)
        throw invalidArgument(`The stream ended after ${index * partSize + filled} bytes; size is ${size}`);
      const take = Math.min(chunk.byteLength, length - filled);
      buffer.set(chunk.subarray(0, take), filled);
      filled += take;
      pending = take < chunk.byteLength ? chunk.subarray(take) : undefined;
    }
    return { index: index++, body: buffer, size: length };
  }

  return {
    next() {
      const result = queue.then(read);
      queue = result.catch(() => undefined);
      return result;
    },
    close: chunks.close,
  };
}
