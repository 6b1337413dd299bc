/**
 * Folder operations for one workspace (spec endpoints 10 to 13). Every lookup is scoped by
 * `workspaceId`: another workspace's folder_no is "Folder not found".
 *
 *   await createFolder(db, workspaceId, createdBy, { name, parent_folder_no })   // Folder; 404 / 409 / 400
 *   await listFolders(sql, workspaceId, query)   // FolderListSource[]; sql: Prisma or app.database.sql
 *   await renameFolder(db, workspaceId, folderNo, name)                          // Folder; 404 / 409 / 400
 *   await deleteFolder(db, workspaceId, folderNo)                                // 404 / 409 "Folder is not empty"
 *
 * - Names: cleaned like file names (outer blanks trimmed; no `/`, `\`, control characters, `.`,
 *   `..`), unique among siblings through the unique (workspace_id, path): 409 on a clash,
 *   case-sensitive.
 * - List: direct children of `parent_folder_no` (root when omitted or empty; an unknown one is
 *   404), optional case-insensitive substring `name` filter, `sort` (default `name_asc`; names
 *   compare case-insensitively, then exactly; ties by id). `total_items` / `total_size` count the
 *   files anywhere below each folder (subfolders included, recursively) and their bytes; folders
 *   themselves are not items. They are read from the counts the write paths keep per folder and
 *   its ancestors (src/files/file-counts.ts), so a folder of a million files costs what an empty
 *   one does.
 * - Rename: one transaction locks the folder (`FOR UPDATE`), renames it, rewrites the `path` of
 *   every descendant folder and of every file below it (so delivery URLs follow at once); the old
 *   URLs stop working. Stored objects do not move (keys are id-based).
 * - Delete: refused (409) while any file is in the folder or anywhere below it; otherwise the
 *   folder and its (empty) subfolders go (ON DELETE CASCADE on parent_id). A file inserted
 *   concurrently below it trips the files -> folders RESTRICT key and becomes the same 409.
 * - Events: `folder.created`, `folder.renamed` (only the folder: files and subfolders below move
 *   with it without events of their own) and `folder.deleted` (one per folder removed, subfolders
 *   included) are enqueued in the same transaction (src/webhooks/workspace-events.ts).
 */
import type { ListFoldersQuery } from "@trove/schema";
import type { RawQuery } from "../db/direct-sql.js";
import { isoTimestampSql } from "../db/iso-timestamp.js";
import { isForeignKeyViolation, isUniqueViolation } from "../db/prisma-errors.js";
import { HttpError, notFound } from "../errors/index.js";
import { cleanName } from "../files/clean-name.js";
import { escapeLike } from "../files/escape-like.js";
import { type Folder, Prisma, type PrismaClient } from "../generated/prisma/client.js";
import { folderEventData } from "../webhooks/event-data.js";
import { emitWorkspaceEvent } from "../webhooks/workspace-events.js";
import { assertFolderPathFits, childPath, MAX_PATH_BYTES, pathBytes } from "./folder-path.js";
import { insertFolder } from "./insert-folder.js";
import type { FolderListSource } from "./serialize-folder.js";

export const FOLDER_NOT_EMPTY_MESSAGE = "Folder is not empty";

function nameTaken(name: string, cause?: unknown): HttpError {
  return new HttpError(409, `A folder named "${name}" already exists here`, { cause });
}

interface LockedFolder {
  id: string;
  path: string;
  name: string;
}

type Tx = Prisma.TransactionClient;

async function lockFolder(tx: Tx, workspaceId: string, folderNo: string, mode: "UPDATE" | "SHARE") {
  const rows = await tx.$queryRaw<LockedFolder[]>`
    SELECT id, path, name FROM folders
    WHERE workspace_id = ${workspaceId}::uuid AND folder_no = ${folderNo}
    FOR ${Prisma.raw(mode)}`;
  return rows[0] ?? null;
}

/** `WITH RECURSIVE subtree(id)`: the folder and all its descendants, to prefix a statement. */
function subtreeOf(folderId: string): Prisma.Sql {
  return Prisma.sql`WITH RECURSIVE subtree(id) AS (
      SELECT id FROM folders WHERE id = ${folderId}::uuid
      UNION ALL
      SELECT c.id FROM folders c JOIN subtree s ON c.parent_id = s.id
    )`;
}

export interface CreateFolderInput {
  name: string;
  parent_folder_no?: string | undefined;
}

export async function createFolder(
  db: PrismaClient,
  workspaceId: string,
  createdBy: string | null,
  input: CreateFolderInput,
): Promise<Folder> {
  const name = cleanName(input.name);
  return db.$transaction(async (tx) => {
    let parent: LockedFolder | null = null;
    if (input.parent_folder_no !== undefined) {
      // FOR SHARE: the parent cannot be renamed or deleted until this folder exists under it.
      parent = await lockFolder(tx, workspaceId, input.parent_folder_no, "SHARE");
      if (!parent) throw notFound("folders");
    }
    const path = childPath(parent?.path, name);
    assertFolderPathFits(path);
    const inserted = await insertFolder(tx, {
      workspaceId,
      parentId: parent?.id ?? null,
      name,
      path,
      createdBy,
    });
    if (!inserted.folder) throw nameTaken(name);
    await emitWorkspaceEvent(tx, {
      workspaceId,
      type: "folder.created",
      data: folderEventData(inserted.folder),
      subject: inserted.folder.id,
    });
    return inserted.folder;
  });
}

const FOLDER_ORDER: Record<NonNullable<ListFoldersQuery["sort"]>, Prisma.Sql> = {
  name_asc: Prisma.sql`lower(c.name) ASC, c.name ASC, c.id ASC`,
  name_desc: Prisma.sql`lower(c.name) DESC, c.name DESC, c.id DESC`,
  created_at_asc: Prisma.sql`c.created_at ASC, c.id ASC`,
  created_at_desc: Prisma.sql`c.created_at DESC, c.id DESC`,
};

export async function listFolders(
  db: RawQuery,
  workspaceId: string,
  query: ListFoldersQuery,
): Promise<FolderListSource[]> {
  let parentCondition = Prisma.sql`parent_id IS NULL`;
  if (query.parent_folder_no !== undefined && query.parent_folder_no !== "") {
    const [parent] = await db.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM folders WHERE workspace_id = ${workspaceId}::uuid AND folder_no = ${query.parent_folder_no}`;
    if (!parent) throw notFound("folders");
    parentCondition = Prisma.sql`parent_id = ${parent.id}::uuid`;
  }
  const nameCondition =
    query.name !== undefined && query.name !== ""
      ? Prisma.sql`AND name ILIKE ${`%${escapeLike(query.name)}%`}`
      : Prisma.empty;
  return db.$queryRaw<FolderListSource[]>`
    SELECT c.folder_no AS "folderNo", c.name, ${isoTimestampSql(Prisma.sql`c.created_at`)} AS "createdAt",
           coalesce(sum(n.tree_files), 0)::bigint AS "totalItems",
           coalesce(sum(n.tree_bytes), 0)::bigint AS "totalSize"
    FROM folders c
    LEFT JOIN folder_file_counts n ON n.folder_id = c.id
    WHERE c.workspace_id = ${workspaceId}::uuid AND ${parentCondition} ${nameCondition}
    GROUP BY c.id, c.folder_no, c.name, c.created_at
    ORDER BY ${FOLDER_ORDER[query.sort ?? "name_asc"]}`;
}

export async function renameFolder(
  db: PrismaClient,
  workspaceId: string,
  folderNo: string,
  requestedName: string,
): Promise<Folder> {
  const name = cleanName(requestedName);
  return db.$transaction(async (tx) => {
    const folder = await lockFolder(tx, workspaceId, folderNo, "UPDATE");
    if (!folder) throw notFound("folders");
    if (name === folder.name) return tx.folder.findUniqueOrThrow({ where: { id: folder.id } });

    const oldPath = folder.path;
    const slash = oldPath.lastIndexOf("/");
    const newPath = childPath(slash === -1 ? null : oldPath.slice(0, slash), name);
    const growth = pathBytes(newPath) - pathBytes(oldPath);
    if (growth > 0) {
      const [row] = await tx.$queryRaw<Array<{ longest: number | bigint | null }>>`
        ${subtreeOf(folder.id)}
        SELECT greatest(
          (SELECT max(octet_length(path)) FROM folders WHERE id IN (SELECT id FROM subtree)),
          (SELECT max(octet_length(path)) FROM files WHERE folder_id IN (SELECT id FROM subtree))
        )::int AS longest`;
      if (Number(row?.longest ?? 0) + growth > MAX_PATH_BYTES) {
        throw new HttpError(400, `name makes a path too long (at most ${MAX_PATH_BYTES} bytes)`);
      }
    }

    let renamed: Folder;
    try {
      renamed = await tx.folder.update({ where: { id: folder.id }, data: { name, path: newPath } });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name, error);
      throw error;
    }
    // Descendants: replace the old path prefix (length counted by PostgreSQL, in characters).
    await tx.$executeRaw`
      ${subtreeOf(folder.id)}
      UPDATE folders SET path = ${newPath} || substr(path, length(${oldPath}::text) + 1), updated_at = now()
      WHERE id IN (SELECT id FROM subtree) AND id <> ${folder.id}::uuid`;
    await tx.$executeRaw`
      ${subtreeOf(folder.id)}
      UPDATE files SET path = ${newPath} || substr(path, length(${oldPath}::text) + 1), updated_at = now()
      WHERE folder_id IN (SELECT id FROM subtree)`;
    await emitWorkspaceEvent(tx, {
      workspaceId,
      type: "folder.renamed",
      data: { ...folderEventData(renamed), previous_name: folder.name, previous_path: oldPath },
      subject: renamed.id,
    });
    return renamed;
  });
}

export async function deleteFolder(db: PrismaClient, workspaceId: string, folderNo: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const folder = await lockFolder(tx, workspaceId, folderNo, "UPDATE");
    if (!folder) throw notFound("folders");
    const [row] = await tx.$queryRaw<Array<{ busy: boolean }>>`
      ${subtreeOf(folder.id)}
      SELECT EXISTS (SELECT 1 FROM files WHERE folder_id IN (SELECT id FROM subtree)) AS busy`;
    if (row?.busy) throw new HttpError(409, FOLDER_NOT_EMPTY_MESSAGE);
    // The (empty) subfolders go too: each gets its own folder.deleted.
    const doomed = await tx.$queryRaw<Array<Pick<Folder, "id" | "folderNo" | "name" | "path" | "parentId">>>`
      ${subtreeOf(folder.id)}
      SELECT id::text AS id, folder_no AS "folderNo", name, path, parent_id::text AS "parentId"
      FROM folders WHERE id IN (SELECT id FROM subtree) ORDER BY length(path) DESC`;
    try {
      await tx.folder.deleteMany({ where: { id: folder.id } });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new HttpError(409, FOLDER_NOT_EMPTY_MESSAGE, { cause: error });
      throw error;
    }
    for (const gone of doomed) {
      await emitWorkspaceEvent(tx, {
        workspaceId,
        type: "folder.deleted",
        data: folderEventData(gone),
        subject: gone.id,
      });
    }
  });
}
