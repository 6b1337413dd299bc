/**
 * A file row inserted under the first free name of its folder: `cat.jpg`, else the next
 * `cat-n.jpg` above the highest one taken. Never overwrites, never fails on a taken name, and is
 * race-free: the insert skips a taken path (./insert-file-row.ts) and the next candidate is tried.
 * The folder is one the caller has (in its transaction), or, with `inFolder`, one the insert finds
 * by path itself (outside a transaction).
 */
import type { RawQuery } from "../db/direct-sql.js";
import { badRequest, HttpError } from "../errors/index.js";
import { assertPathFits } from "../folders/folder-path.js";
import type { File, Folder, Prisma, PrismaClient } from "../generated/prisma/client.js";
import { randomString } from "../ids.js";
import { type InsertFileRowOptions, insertFileRow, type NewFileRow } from "./insert-file-row.js";
import { collisionName, collisionPattern, collisionStem } from "./stored-name.js";

type Tx = Prisma.TransactionClient;

/** Inserts tried before giving up on a free name (each failure recomputes the next free one). */
const MAX_NAME_ATTEMPTS = 8;
/** Existing alternatives read to find the next free `-n`. */
const MAX_COLLISION_SCAN = 10_000;

/** The row without its place: the folder, the name and the path are chosen here. */
export type UnplacedFileRow = Omit<NewFileRow, "folderId" | "name" | "path">;

export interface PlacedFileRow {
  file: File;
  isDuplicate: boolean;
  folder: Folder | null;
}

/**
 * Inserts under the first free name in the folder; `db` is the transaction, if there is one,
 * and `insertDb` what runs the insert (the transaction, or the direct path outside one).
 * Null when `unless` held or a level of `inFolder` was missing: nothing was inserted.
 */
export async function placeFileRow(
  db: PrismaClient | Tx,
  insertDb: RawQuery,
  row: UnplacedFileRow,
  baseName: string,
  folder: Folder | null,
  options: InsertFileRowOptions = {},
): Promise<PlacedFileRow | null> {
  const folderPath = options.inFolder ? options.inFolder.join("/") : folder?.path;
  const prefix = folderPath ? `${folderPath}/` : "";
  let name = baseName;
  for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
    const path = `${prefix}${name}`;
    assertPathFits(path);
    const inserted = await insertFileRow(
      insertDb,
      { ...row, folderId: folder?.id ?? null, name, path },
      options,
    );
    if (inserted.skipped) return null;
    if (inserted.file) {
      return { file: inserted.file, isDuplicate: inserted.isDuplicate, folder: inserted.folder ?? folder };
    }
    name = await nextFreeName(db, row.workspaceId, prefix, baseName);
  }
  throw new HttpError(409, `Could not find a free name for "${baseName}" in this folder`);
}

/** `name-n.ext` with n one above the highest alternative already in the folder. */
async function nextFreeName(
  db: PrismaClient | Tx,
  workspaceId: string,
  prefix: string,
  baseName: string,
): Promise<string> {
  const pattern = collisionPattern(baseName);
  // `startsWith` may over-match (LIKE wildcards in the name); the pattern filters exactly.
  const rows = await db.file.findMany({
    where: { workspaceId, path: { startsWith: `${prefix}${collisionStem(baseName)}` } },
    select: { name: true },
    take: MAX_COLLISION_SCAN,
  });
  let highest = 0;
  for (const row of rows) {
    const match = pattern.exec(row.name);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  if (rows.length >= MAX_COLLISION_SCAN) {
    return collisionName(baseName, Number.parseInt(randomString(6, "0123456789"), 10) + 1_000_000);
  }
  if (highest >= 999_999_999) throw badRequest(`Too many files named like "${baseName}" in this folder`);
  return collisionName(baseName, highest + 1);
}
