/**
 * `deleteFileObjects(storage, file)`: removes every stored object of a file: the file itself,
 * its thumbnail and every cached delivery variant (`allVariantCachePrefixes(storageKey)`: those
 * an older renderer version cached too). Idempotent
 * (missing objects are not errors). Call it after the file's row is gone, so delivery can no
 * longer find the file and no variant is rendered again meanwhile.
 */
import { allVariantCachePrefixes } from "../media/variant-cache-key.js";
import type { StorageDriver } from "../storage/driver.js";

export interface FileObjects {
  storageKey: string;
  thumbnailKey?: string | null;
}

export async function deleteFileObjects(
  storage: Pick<StorageDriver, "delete" | "list">,
  file: FileObjects,
): Promise<void> {
  await deleteVariants(storage, file.storageKey);
  await storage.delete(file.storageKey);
  if (file.thumbnailKey) await storage.delete(file.thumbnailKey);
}

/** Deletes the cached delivery variants of a stored object. */
export async function deleteVariants(
  storage: Pick<StorageDriver, "delete" | "list">,
  storageKey: string,
): Promise<void> {
  const keys: string[] = [];
  for (const prefix of allVariantCachePrefixes(storageKey)) {
    for await (const object of storage.list(prefix)) keys.push(object.key);
  }
  for (const key of keys) await storage.delete(key);
}
