/**
 * Storage keys of an upload, and reading a stored image for the media pipeline.
 *
 *   objectKey(workspaceId, fileId, name)   <workspaceId>/<fileId>/<safe name>   the file (src/storage/driver.ts)
 *   thumbnailObjectKey(workspaceId, fileId) thumbnails/<workspaceId>/<fileId>.webp
 *   variantCachePrefix(storageKey)          variants/v1/<digest>/...             delivery variants (src/media)
 *
 * Thumbnails live under their own top-level prefix so that no user file name can ever collide
 * with one (a file named `thumbnail.webp` still lives at `<workspaceId>/<fileId>/thumbnail.webp`).
 */
import { Readable } from "node:stream";
import type { ImageInput } from "../media/image-input.js";
import { readSource } from "../media/read-source.js";
import { assertValidKey, type StorageDriver } from "../storage/driver.js";
import { FsStorageDriver } from "../storage/fs-driver.js";

export function thumbnailObjectKey(workspaceId: string, fileId: string): string {
  const key = `thumbnails/${workspaceId}/${fileId}.webp`;
  assertValidKey(key);
  return key;
}

/**
 * A stored object as the media pipeline reads it: on the fs driver its path (libvips reads the
 * file itself, nothing is buffered by us); elsewhere its bytes, refused past `maxBytes`.
 */
export async function imageInputOf(
  storage: StorageDriver,
  key: string,
  maxBytes: number,
): Promise<ImageInput> {
  if (storage instanceof FsStorageDriver) return storage.pathOf(key);
  return readSource(await storage.get(key), maxBytes);
}

/** Stores a buffer; returns its size. */
export async function putBuffer(storage: StorageDriver, key: string, buffer: Buffer, contentType?: string) {
  return storage.put(key, Readable.from([buffer]), {
    expectedSize: buffer.length,
    ...(contentType ? { contentType } : {}),
  });
}

/** The first `length` bytes of a stored object (fewer if it is shorter). */
export async function readObjectHead(storage: StorageDriver, key: string, length: number): Promise<Buffer> {
  const stream = await storage.get(key, { range: { start: 0, end: length - 1 } });
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    total += chunk.length;
    if (total >= length) break;
  }
  stream.destroy();
  return Buffer.concat(chunks, total).subarray(0, length);
}
