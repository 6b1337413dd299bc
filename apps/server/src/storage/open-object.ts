import { ObjectNotFoundError, type OpenedObject, type StorageDriver } from "./driver.js";

/**
 * The object's size and a stream of it, or null when it is missing: in one call where the driver
 * can (`open`), else `stat` then `get` (a driver written before `open` existed).
 */
export async function openObject(
  storage: Pick<StorageDriver, "open" | "stat" | "get">,
  key: string,
): Promise<OpenedObject | null> {
  if (storage.open) return storage.open(key);
  const stat = await storage.stat(key);
  if (!stat) return null;
  try {
    return { size: stat.size, body: await storage.get(key) };
  } catch (error) {
    if (error instanceof ObjectNotFoundError) return null; // removed since the stat
    throw error;
  }
}
