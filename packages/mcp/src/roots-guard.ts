import { constants, type Stats } from "node:fs";
import { type FileHandle, open, readlink, realpath, stat } from "node:fs/promises";
import { delimiter, isAbsolute, resolve, sep } from "node:path";

/**
 * The path upload tool reads only regular files under the folders named by TROVE_MCP_ROOTS. A
 * model picks the path, and a model can be talked into anything by what it reads, so the rule is
 * enforced on what is actually opened, not on the string:
 *
 * 1. the path and every root are resolved with realpath (symlinks and `..` anywhere in them),
 *    and the resolved file must lie inside a resolved root;
 * 2. the resolved path is opened with O_NOFOLLOW (its last component cannot have become a
 *    symlink since) and O_NONBLOCK (opening a FIFO must not hang the server);
 * 3. the open descriptor is fstat'ed: only a regular file passes (no directory, device, FIFO,
 *    socket), and it must be the very file the path resolved to (same device and inode as a stat
 *    of the resolved path), and on Linux the descriptor's own path (/proc/self/fd) must still lie
 *    inside a root, so a parent directory swapped for a symlink between 1 and 2 is caught.
 */
export class RootsViolation extends Error {
  readonly code = "PATH_NOT_ALLOWED";
}

/** TROVE_MCP_ROOTS: folders separated by the platform's path delimiter (`:`, `;` on Windows). */
export function parseRoots(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(delimiter)
    .map((root) => root.trim())
    .filter((root) => root !== "");
}

export interface OpenedFile {
  handle: FileHandle;
  /** The file's resolved path. */
  path: string;
  size: number;
}

export async function openUnderRoots(requested: string, roots: readonly string[]): Promise<OpenedFile> {
  if (!isAbsolute(requested)) {
    throw new RootsViolation(`${requested} is not an absolute path`);
  }
  const resolvedRoots = await resolveRoots(roots);
  const resolved = await realpath(requested).catch((error: NodeJS.ErrnoException) => {
    throw new RootsViolation(`${requested} cannot be read (${error.code ?? error.message})`);
  });
  if (!insideAny(resolved, resolvedRoots)) {
    throw new RootsViolation(`${requested} is outside the allowed folders (TROVE_MCP_ROOTS)`);
  }
  const handle = await open(resolved, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      throw new RootsViolation(`${requested} cannot be opened (${error.code ?? error.message})`);
    },
  );
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new RootsViolation(`${requested} is not a regular file (${kindOf(stats)})`);
    await assertSameFile(handle, stats, resolved, resolvedRoots, requested);
    return { handle, path: resolved, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function assertSameFile(
  handle: FileHandle,
  opened: Stats,
  resolved: string,
  roots: readonly string[],
  requested: string,
): Promise<void> {
  const again = await realpath(resolved).catch(() => undefined);
  if (again !== resolved) throw new RootsViolation(`${requested} changed while it was opened`);
  const descriptorPath = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (descriptorPath !== undefined && !insideAny(descriptorPath, roots)) {
    throw new RootsViolation(`${requested} is outside the allowed folders (TROVE_MCP_ROOTS)`);
  }
  const current = await stat(resolved);
  if (current.dev !== opened.dev || current.ino !== opened.ino) {
    throw new RootsViolation(`${requested} changed while it was opened`);
  }
}

async function resolveRoots(roots: readonly string[]): Promise<string[]> {
  const resolved: string[] = [];
  for (const root of roots) {
    // A root that does not exist (yet) allows nothing; it is not an error of the call.
    const real = await realpath(resolve(root)).catch(() => undefined);
    if (real !== undefined) resolved.push(real);
  }
  return resolved;
}

function insideAny(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
    return path.startsWith(prefix);
  });
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a file";
}
