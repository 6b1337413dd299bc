/**
 * Storage keys of an upload, and reading a stored image for the media pipeline.
 *
 *   objectKey(workspaceId, fileId, name)   <workspaceId>/<fileId>/<safe name>   the file (src/storage/driver.ts)
 *   variantCachePrefix(storageKey)          variants/v2/<digest>/...             delivery variants (src/media)
 *   thumbnailKeyOf(storageKey)              variants/v2/<digest>/<digest>        the thumbnail variant
 *
 * A thumbnail is the delivery variant of THUMBNAIL_TRANSFORM, rendered on its first request and
 * cached where delivery caches that variant; `files.thumbnail_key` names that key (non-null:
 * the file is an image with a thumbnail URL).
 */
import { THUMBNAIL_TRANSFORM } from "../files/file-urls.js";
import type { ImageInput } from "../media/image-input.js";
import { readMediaInput } from "../media/read-media-input.js";
import { variantCacheKey } from "../media/variant-cache-key.js";
import type { StorageDriver } from "./driver.js";

/** Where delivery caches the thumbnail of the object at `storageKey` (its Accept never matters). */
export function thumbnailKeyOf(storageKey: string): string {
  return variantCacheKey(storageKey, THUMBNAIL_TRANSFORM, "legacy");
}

/**
 * A stored object as the media pipeline reads it: its local path where the driver has one
 * (libvips reads the file itself, nothing is buffered by us); elsewhere its bytes, refused past
 * `maxBytes`.
 */
export async function imageInputOf(
  storage: StorageDriver,
  key: string,
  maxBytes: number,
): Promise<ImageInput> {
  if (storage.localPath) return storage.localPath(key);
  return readMediaInput(await storage.get(key), maxBytes);
}

/** Stores a buffer; returns its size. `newKey`: see PutOptions.newKey. */
export async function putBuffer(
  storage: StorageDriver,
  key: string,
  buffer: Buffer,
  contentType?: string,
  { newKey = false }: { newKey?: boolean } = {},
) {
  return storage.put(key, buffer, {
    expectedSize: buffer.length,
    newKey,
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
