import { abortErrorFrom } from "../abort-error.js";
import { invalidArgument } from "../invalid-argument.js";

/**
 * Reads a whole stream that is meant to be small (at most `limit` bytes) into one buffer, for a
 * direct upload. More than `limit` bytes means the caller must say how big it is, because a
 * multipart upload declares its size up front.
 */
export async function readSmallStream(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  signal: AbortSignal,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  // A slow stream must not hold an aborted upload: cancelling ends the pending read.
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (signal.aborted) throw abortErrorFrom(signal);
      if (done) break;
      length += value.byteLength;
      if (length > limit) {
        throw invalidArgument(
          `The stream is over multipartThreshold (${limit} bytes): pass options.size to send it in parts`,
        );
      }
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
