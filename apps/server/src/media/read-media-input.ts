import { type ImageInput, isImageFile } from "./image-input.js";
import { MediaError } from "./media-error.js";

/**
 * What delivery may hand the media pipeline: a path, bytes, a file with its head read, or a
 * stream (Node Readable or web ReadableStream). Named "input", never "source": a source is an
 * origin resource (src/sources/).
 */
export type MediaInput = ImageInput | AsyncIterable<Uint8Array>;

/**
 * Turns a stream into bytes, refusing past `maxBytes` as soon as the limit is crossed. sharp
 * itself collects a piped stream into one buffer before decoding, so buffering here costs
 * nothing extra and lets the head be sniffed before any decoder sees the bytes.
 */
export async function readMediaInput(input: MediaInput, maxBytes: number): Promise<ImageInput> {
  if (typeof input === "string" || Buffer.isBuffer(input) || isImageFile(input)) return input;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of input) {
    total += chunk.length;
    if (total > maxBytes) {
      throw new MediaError("FILE_TOO_LARGE", `source is larger than the ${maxBytes}-byte limit`);
    }
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
  }
  return Buffer.concat(chunks, total);
}
