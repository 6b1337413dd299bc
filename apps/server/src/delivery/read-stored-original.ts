/**
 * The stored original a delivery render reads, read once. On this machine (the fs driver) the
 * file is opened once, and what is read depends on where its header lies:
 *
 * - a file up to HEAD_BYTES is read whole;
 * - a JPEG or PNG whose header lies in its first HEAD_BYTES (our parsers,
 *   src/media/parse-raster-header.ts, vouch for it from them: JPEG's header ends at the first
 *   scan, PNG's at IDAT) is sniffed and its header read from those bytes, and it is decoded by
 *   libvips from its path (an ImageFile). Its compressed pixels never enter the JavaScript heap:
 *   read into a Buffer, a 1 MB photo cost the main thread about 0.4 ms per fresh render (bench
 *   11's profile) and held a megabyte per render in flight;
 * - any other file up to IN_MEMORY_MAX_BYTES is read whole, so that a parser that needs the
 *   file's end (a RIFF size, a GIF trailer) or a longer head reads it from memory, rather than
 *   libvips reading the header from disk;
 * - a larger file is decoded from its path, its head read all the same.
 *
 * An object elsewhere is read into memory up to `maxBytes`. A file read by its path can be
 * deleted while it renders; the renderer then answers 404 (./variant-renderer.ts).
 */
import { type FileHandle, open } from "node:fs/promises";
import type { ImageInput } from "../media/image-input.js";
import { parseRasterHeader } from "../media/parse-raster-header.js";
import type { RasterFormat } from "../media/raster-format.js";
import { readMediaInput } from "../media/read-media-input.js";
import { ObjectNotFoundError, type StorageDriver } from "../storage/driver.js";

/** Originals read into memory at most this size; renders hold one each, inside their slot. */
export const IN_MEMORY_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The bytes read from the start of a file decoded from its path: room for a phone photo's EXIF
 * block (at most 64 KiB), its ICC profile and the tables before the first scan. A header that
 * runs past them is read by libvips instead, as for a file without a parser.
 */
export const HEAD_BYTES = 128 * 1024;

/** Formats whose header precedes the pixels, so that a head of the file can hold it. */
const HEADER_FIRST: readonly RasterFormat[] = ["jpeg", "png"];

/**
 * Whether `head` holds the whole header of a JPEG or PNG, as our parsers read it (the render
 * parses it again from the head; a header parse is microseconds, carrying it would be new state).
 */
const holdsHeader = (head: Buffer) =>
  HEADER_FIRST.some((format) => parseRasterHeader(head, format) !== undefined);

export async function readStoredOriginal(
  storage: Pick<StorageDriver, "get" | "localPath">,
  key: string,
  maxBytes: number,
): Promise<ImageInput> {
  if (!storage.localPath) return readMediaInput(await storage.get(key), maxBytes);
  const path = storage.localPath(key);
  const file = await open(path, "r").catch((error: NodeJS.ErrnoException) => {
    throw error.code === "ENOENT" ? new ObjectNotFoundError(key) : error;
  });
  try {
    const { size } = await file.stat();
    if (size <= HEAD_BYTES) return await fill(file, Buffer.allocUnsafe(size), 0);
    const head = await fill(file, Buffer.allocUnsafe(HEAD_BYTES), 0);
    const inMemory = size <= Math.min(IN_MEMORY_MAX_BYTES, maxBytes);
    if (!inMemory || holdsHeader(head)) return { path, head };
    // Read whole after all: the rest goes straight after a copy of the head, not through a concat.
    const whole = Buffer.allocUnsafe(size);
    head.copy(whole);
    return await fill(file, whole, head.length);
  } finally {
    await file.close();
  }
}

/**
 * `buffer` filled from the file, from offset `from` on (file and buffer offsets are the same), in
 * as few reads as the kernel allows (one, for a file in the page cache): `FileHandle.readFile`
 * would stat it again and read in chunks, each a thread-pool round trip. A file that shrank since
 * the stat is returned as far as it goes.
 */
async function fill(file: FileHandle, buffer: Buffer, from: number): Promise<Buffer> {
  let filled = from;
  while (filled < buffer.length) {
    const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
  }
  return buffer;
}
