/**
 * Inserts one folder unless its path already exists, without ever raising a unique violation:
 * `INSERT ... ON CONFLICT DO NOTHING` (Prisma `skipDuplicates`). That matters inside a
 * transaction: on PostgreSQL a failed statement aborts the whole transaction, so "insert, catch
 * P2002, look up" cannot work there, while "insert or nothing, then look up" can. A concurrent
 * insert of the same path makes this one wait for it and then do nothing.
 *
 *   const result = await insertFolder(tx, { workspaceId, parentId, name, path, createdBy });
 *   result.folder   // the new row, or null when the path was taken (then result.exists is true)
 */
import type { Folder, Prisma, PrismaClient } from "../generated/prisma/client.js";
import { randomShortNo } from "../ids.js";

export type FolderDb = Pick<PrismaClient, "folder" | "$queryRaw" | "$executeRaw"> | Prisma.TransactionClient;

export interface InsertFolderInput {
  workspaceId: string;
  parentId: string | null;
  name: string;
  path: string;
  createdBy: string | null;
}

/** A random folder_no colliding this often means something else is wrong. */
const MAX_FOLDER_NO_ATTEMPTS = 5;

export async function insertFolder(
  db: FolderDb,
  input: InsertFolderInput,
): Promise<{ folder: Folder; exists: false } | { folder: null; exists: true }> {
  for (let attempt = 0; attempt < MAX_FOLDER_NO_ATTEMPTS; attempt++) {
    const [created] = await db.folder.createManyAndReturn({
      data: [{ ...input, folderNo: randomShortNo() }],
      skipDuplicates: true,
    });
    if (created) return { folder: created, exists: false };
    // Nothing inserted: the path exists, or (rarely) the random folder_no did. Only the latter retries.
    const existing = await db.folder.findUnique({
      where: { workspaceId_path: { workspaceId: input.workspaceId, path: input.path } },
      select: { id: true },
    });
    if (existing) return { folder: null, exists: true };
  }
  throw new Error("Could not allocate a unique folder_no");
}
