/**
 * The stored original a delivery render reads, read once. A file on this machine (the fs driver)
 * up to IN_MEMORY_MAX_BYTES is read whole in one open: sniffing, the header (parsed from the
 * bytes by our own parsers, src/media/read-image-header.ts) and the decode then share that read,
 * where a path costs three opens of the file and a libvips header read before the decode. A
 * larger file is handed to libvips as its path (decoded from disk, never buffered by us), and an
 * object elsewhere is read into memory up to `maxBytes`, as before.
 */
import { type FileHandle, open } from "node:fs/promises";
import type { ImageInput } from "../media/image-input.js";
import { readMediaInput } from "../media/read-media-input.js";
import { ObjectNotFoundError, type StorageDriver } from "../storage/driver.js";

/** Originals read into memory at most this size; renders hold one each, inside their slot. */
export const IN_MEMORY_MAX_BYTES = 32 * 1024 * 1024;

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
    if (size > Math.min(IN_MEMORY_MAX_BYTES, maxBytes)) return path;
    return await readExactly(file, size);
  } finally {
    await file.close();
  }
}

/**
 * The file's `size` bytes, in as few reads as the kernel allows (one, for a file in the page
 * cache): `FileHandle.readFile` would stat it again and read in chunks, each a thread-pool round
 * trip. A file that shrank since the stat is returned as far as it goes.
 */
async function readExactly(file: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await file.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
  }
  return buffer;
}
