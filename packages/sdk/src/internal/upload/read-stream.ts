import { invalidArgument } from "../invalid-argument.js";
import { chunkReader } from "./chunk-reader.js";

/**
 * Reads a whole stream that is meant to be small (at most `limit` bytes), for a direct upload:
 * its chunks, to be joined by a Blob. More than `limit` bytes means the caller must say how big
 * it is, because a multipart upload declares its size up front; a stream that ends at another
 * length than the caller's `options.size` is refused as well.
 */
export async function readSmallStream(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  declaredSize: number | undefined,
  signal: AbortSignal,
): Promise<Uint8Array<ArrayBuffer>[]> {
  const chunks = chunkReader(stream, signal);
  // Streams hand out ArrayBuffer-backed chunks; a Blob copies them.
  const read: Uint8Array<ArrayBuffer>[] = [];
  let length = 0;
  try {
    for (;;) {
      const chunk = await chunks.next();
      if (!chunk) break;
      length += chunk.byteLength;
      if (length > limit) {
        throw invalidArgument(
          `The stream is over multipartThreshold (${limit} bytes): pass options.size to send it in parts`,
        );
      }
      read.push(chunk as Uint8Array<ArrayBuffer>);
    }
  } finally {
    await chunks.close();
  }
  if (declaredSize !== undefined && length !== declaredSize) {
    throw invalidArgument(`The stream had ${length} bytes; options.size is ${declaredSize}`);
  }
  return read;
}
