import { constants, statSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { invalidArgument } from "../invalid-argument.js";

/**
 * A session store holds presigned part URLs. Another local user who can write the store (or the
 * folder it sits in, and so replace it) can swap a part URL for one of their own session's, or
 * mark parts confirmed, before the owner resumes: the file that gets stored is then partly theirs.
 * So the store is created private (folder 0700, file 0600) and a store that someone else owns or
 * may write is refused, loudly, rather than read.
 *
 * POSIX only: on Windows the mode bits say nothing about who may write (ACLs do), so there the
 * checks are skipped, as they are where the process has no uid.
 */

/** The fields of a stat the decision reads: tests pass their own (another user's file needs root to make). */
export interface StoreStats {
  uid: number;
  mode: number;
  isFile(): boolean;
  isDirectory(): boolean;
}

/** Why `path` must not hold (or be the folder of) a session store, or undefined when it may. */
export function unsafeStoreReason(
  kind: "file" | "folder",
  path: string,
  stats: StoreStats,
  ownUid: number,
): string | undefined {
  const chmod = kind === "file" ? "600" : "700";
  if (kind === "file" && !stats.isFile()) return `${path} is not a regular file`;
  if (kind === "folder" && !stats.isDirectory()) return `${path} is not a folder`;
  // root may write anything anyway, so a root-owned store adds nobody who can tamper with it.
  if (stats.uid !== ownUid && stats.uid !== 0)
    return `${path} belongs to another user (uid ${stats.uid}), who can rewrite it; choose a path in a folder of your own`;
  // A sticky folder others may write (/tmp) is fine: they can add files but not rename or remove
  // ours, and a store file they planted there is theirs, refused above.
  if (kind === "folder" && (stats.mode & 0o1000) !== 0) return undefined;
  if ((stats.mode & 0o022) !== 0)
    return `${path} can be written by other users (mode ${(stats.mode & 0o777).toString(8)}); run chmod ${chmod} ${path}`;
  return undefined;
}

function ownUid(): number | undefined {
  return process.platform === "win32" ? undefined : process.getuid?.();
}

function refuse(kind: "file" | "folder", path: string, stats: StoreStats): void {
  const uid = ownUid();
  const reason = uid === undefined ? undefined : unsafeStoreReason(kind, path, stats, uid);
  if (reason !== undefined)
    throw invalidArgument(
      `Refusing the upload session store: ${reason}. It holds presigned part URLs, which another user could replace before an upload resumes.`,
    );
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/** At fileSessionStore(): the folder and the file as they are now, so a bad place fails where it is named. */
export function checkStorePlaceSync(path: string): void {
  const folder = dirname(path);
  const folderStats = statSync(folder, { throwIfNoEntry: false });
  if (folderStats) refuse("folder", folder, folderStats);
  const fileStats = statSync(path, { throwIfNoEntry: false });
  if (fileStats) refuse("file", path, fileStats);
}

/** The store's folder, which may be missing (it is made, 0700, on the first write). */
export async function checkStoreFolder(folder: string): Promise<void> {
  try {
    refuse("folder", folder, await stat(folder));
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/**
 * The store file's text, or undefined when there is none. The checks are made on the open handle,
 * so what is read is what was checked; O_NONBLOCK keeps a FIFO planted there from hanging the open.
 */
export async function readStoreFile(path: string): Promise<string | undefined> {
  await checkStoreFolder(dirname(path));
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    refuse("file", path, await handle.stat());
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}
