import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";

/** One file to upload. */
export interface UploadItem {
  /** Absolute path. */
  path: string;
  /** The path as the user would write it: relative to the working directory when inside it. */
  display: string;
  /** Destination folder path (`a/b`), or undefined for the root. */
  folder: string | undefined;
  size: number;
}

/** An argument that could not be read: reported as a failed upload. */
export interface UnreadableArgument {
  display: string;
  /** "does not exist", "cannot be read (permission denied)", … */
  reason: string;
  /** The system's error code (ENOENT, EACCES), or UNSUPPORTED_FILE_TYPE. */
  code: string;
}

/**
 * Expands the command line into files. A file goes into `folder`. A directory is walked
 * recursively and keeps its own name, like `cp -r`: `photos/2024/a.jpg` given as `photos` with
 * `--folder site` lands in `site/photos/2024`. Symbolic links to files are followed; links to
 * directories are skipped (no cycles); sockets, FIFOs and devices are skipped. The same file for
 * the same folder is listed once.
 */
export async function collectFiles(
  args: string[],
  folder: string | undefined,
  cwd: string = process.cwd(),
): Promise<{ items: UploadItem[]; unreadable: UnreadableArgument[] }> {
  const items: UploadItem[] = [];
  const unreadable: UnreadableArgument[] = [];
  const seen = new Set<string>();
  const root = normaliseFolder(folder);

  const add = (path: string, display: string, itemFolder: string | undefined, size: number) => {
    const key = `${path}\0${itemFolder ?? ""}`;
    if (seen.has(key)) return;
    seen.add(key);
    items.push({ path, display, folder: itemFolder, size });
  };

  for (const arg of args) {
    const path = resolve(cwd, arg);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch (error) {
      unreadable.push({ display: arg, ...reasonOf(error) });
      continue;
    }
    if (info.isFile()) {
      add(path, arg, root, info.size);
    } else if (info.isDirectory()) {
      const base = basename(path);
      const files = await walk(path, unreadable, displayOf(path, cwd));
      for (const file of files) {
        const segments = relative(path, file.path).split(sep).slice(0, -1);
        add(file.path, displayOf(file.path, cwd), joinFolder(root, base, ...segments), file.size);
      }
    } else {
      unreadable.push({
        display: arg,
        reason: "is not a regular file or directory",
        code: "UNSUPPORTED_FILE_TYPE",
      });
    }
  }
  return { items, unreadable };
}

async function walk(
  directory: string,
  unreadable: UnreadableArgument[],
  display: string,
): Promise<{ path: string; size: number }[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    unreadable.push({ display, ...reasonOf(error) });
    return [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: { path: string; size: number }[] = [];
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      files.push(...(await walk(path, unreadable, join(display, entry.name))));
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      try {
        const info = await stat(path);
        if (info.isFile()) files.push({ path, size: info.size });
      } catch (error) {
        unreadable.push({ display: join(display, entry.name), ...reasonOf(error) });
      }
    }
  }
  return files;
}

function displayOf(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

/** `/a//b/` → `a/b`; empty → undefined (the root). */
export function normaliseFolder(folder: string | undefined): string | undefined {
  const cleaned = (folder ?? "")
    .split(/[\\/]+/)
    .filter((segment) => segment !== "" && segment !== ".")
    .join("/");
  return cleaned === "" ? undefined : cleaned;
}

function joinFolder(...parts: (string | undefined)[]): string | undefined {
  return normaliseFolder(parts.filter((part) => part !== undefined && part !== "").join("/"));
}

function reasonOf(error: unknown): { reason: string; code: string } {
  const code = (error as NodeJS.ErrnoException).code ?? "EIO";
  switch (code) {
    case "ENOENT":
      return { reason: "does not exist", code };
    case "EACCES":
    case "EPERM":
      return { reason: "cannot be read (permission denied)", code };
    default:
      return { reason: `cannot be read (${(error as Error).message})`, code };
  }
}
