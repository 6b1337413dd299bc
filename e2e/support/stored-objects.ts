import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";

/**
 * Every object the fs driver holds under a server's data folder (its `.tmp` excluded), as sorted
 * `/`-separated keys. `.multipart/<upload>/` holds a pending session's staging (its parts), removed
 * when the session completes, is refused or expires.
 */
export async function storedObjects(dataDir: string): Promise<string[]> {
  const root = join(dataDir, "storage");
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (relative(root, path) === ".tmp") continue;
      if (entry.isDirectory()) await walk(path);
      else out.push(relative(root, path).split(sep).join("/"));
    }
  };
  await walk(root);
  return out.sort();
}
