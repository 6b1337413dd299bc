/**
 * Folder paths: slash-separated names without leading or trailing slash (`photos/2024`), the
 * same string as `folders.path` and the folder part of `files.path` and of delivery URLs.
 *
 *   splitFolderPath("/photos//2024/ ")  -> ["photos", "2024"]   (each segment cleaned, see cleanName)
 *   splitFolderPath("a/../b")           -> throws 400 (".", "..", "\", control characters, names over 255)
 *   childPath("photos", "2024")          -> "photos/2024";  childPath(null, "photos") -> "photos"
 *   assertPathFits(path)                 -> throws 400 beyond MAX_PATH_BYTES / MAX_FOLDER_DEPTH
 *
 * Paths are case-sensitive (`Photos` and `photos` are two folders), like object stores and URLs.
 * The byte limit keeps every path well inside PostgreSQL's B-tree entry limit (about 2.7 kB for
 * the unique (workspace_id, path) indexes), so no name can turn into a 5xx.
 */
import { badRequest } from "../errors/index.js";
import { cleanName } from "../files/clean-name.js";

/** Longest folder or file path, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 2000;
/** Deepest folder nesting. */
export const MAX_FOLDER_DEPTH = 32;
/** Longest folder name, in characters (`folders.name` is VARCHAR(255)). */
export const MAX_FOLDER_NAME_LENGTH = 255;

export function splitFolderPath(path: string, what = "folder"): string[] {
  return path
    .split("/")
    .filter((segment) => segment.trim() !== "")
    .map((segment) => {
      const name = cleanName(segment, what);
      if (name.length > MAX_FOLDER_NAME_LENGTH) {
        throw badRequest(`${what} names are at most ${MAX_FOLDER_NAME_LENGTH} characters`);
      }
      return name;
    });
}

export function childPath(parentPath: string | null | undefined, name: string): string {
  return parentPath ? `${parentPath}/${name}` : name;
}

export function pathBytes(path: string): number {
  return Buffer.byteLength(path, "utf8");
}

export function assertPathFits(path: string): void {
  if (pathBytes(path) > MAX_PATH_BYTES)
    throw badRequest(`path is too long (at most ${MAX_PATH_BYTES} bytes)`);
}

export function assertFolderPathFits(path: string): void {
  assertPathFits(path);
  if (path.split("/").length > MAX_FOLDER_DEPTH) {
    throw badRequest(`folders nest at most ${MAX_FOLDER_DEPTH} levels deep`);
  }
}
