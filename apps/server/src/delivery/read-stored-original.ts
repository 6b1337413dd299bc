/**
 * The stored original a delivery render reads, read once. A file on this machine (the fs driver)
 * up to IN_MEMORY_MAX_BYTES is read whole in one open: sniffing, the header (parsed from the
 * bytes by our own parsers, src/media/read-image-header.ts) and the decode then share that read,
 * where a path costs three opens of the file and a libvips header read before the decode. A
 * larger file is handed to libvips as its path (decoded from disk, never buffered by us), and an
 * object elsewhere is read into memory up to `maxBytes`, as before.
 */
import { open } from "node:fs/promises";
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
    return await file.readFile();
  } finally {
    await file.close();
  }
}
