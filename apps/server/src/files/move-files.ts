/**
 * Moves files to a folder or the workspace's root (`POST /api/v1/files/move`), all or none:
 *
 *   const moved = await moveFiles(db, workspaceId, ["12", "13"], "f1a2b3");   // or null for the root
 *
 * Only rows change: a file's storage key is `<workspaceId>/<fileId>/<name at upload>`
 * (src/storage/driver.ts `objectKey`), which does not name its folder, so the bytes, stored
 * variants and video outputs (keyed by the file id) stay where they are, and nothing can
 * half-fail between the database and storage. `folder_id` and `path` change in one transaction:
 * the delivery host looks files up by path on every request, so the file is served at its new
 * path and 404 at the old one from the commit on (URLs a shared cache or CDN already holds live
 * until their max-age, as after a rename). The folder and workspace counts follow through the
 * trigger on `files` (./file-counts.ts).
 *
 * Locks: the files `FOR UPDATE` (a concurrent rename or delete waits), the destination folder
 * `FOR SHARE`, so a concurrent rename of it (which takes it `FOR UPDATE` and rewrites the paths
 * below it) cannot leave a moved file with the folder's old path. A name already taken in the
 * destination (by a file there or by two of the moved files) is the unique (workspace_id, path):
 * 409, nothing moved. Each moved file gets a `file.updated` event with its `previous_path`.
 */
import { isUniqueViolation } from "../db/prisma-errors.js";
import { HttpError } from "../errors/index.js";
import { assertPathFits } from "../folders/folder-path.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import { fileEventData } from "../webhooks/event-data.js";
import { emitWorkspaceEvent } from "../webhooks/workspace-events.js";
import { unexpiredSql } from "./unexpired.js";

interface LockedFile {
  id: string;
  fileNo: string;
  name: string;
  path: string;
  folderId: string | null;
}

/** Moves the files; returns how many (all of them: a file already there counts). */
export async function moveFiles(
  db: PrismaClient,
  workspaceId: string,
  fileNos: readonly string[],
  folderNo: string | null,
): Promise<number> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<LockedFile[]>`
      SELECT id::text AS id, file_no::text AS "fileNo", name, path, folder_id::text AS "folderId"
        FROM files f
       WHERE workspace_id = ${workspaceId}::uuid AND file_no = ANY(${[...fileNos]}::text[]::bigint[])
         AND ${unexpiredSql("f")}
       ORDER BY file_no
         FOR UPDATE`;
    const found = new Set(locked.map((file) => file.fileNo));
    const missing = fileNos.find((no) => !found.has(no));
    if (missing !== undefined) throw new HttpError(404, `File ${missing} not found`);

    let folder: { id: string; path: string } | null = null;
    if (folderNo !== null) {
      const [row] = await tx.$queryRaw<Array<{ id: string; path: string }>>`
        SELECT id::text AS id, path FROM folders
         WHERE workspace_id = ${workspaceId}::uuid AND folder_no = ${folderNo}
           FOR SHARE`;
      if (!row) throw new HttpError(404, `Folder ${folderNo} not found`);
      folder = row;
    }

    for (const file of locked) {
      if (file.folderId === (folder?.id ?? null)) continue;
      const path = folder ? `${folder.path}/${file.name}` : file.name;
      assertPathFits(path);
      let moved: Awaited<ReturnType<typeof tx.file.update>>;
      try {
        moved = await tx.file.update({
          where: { id: file.id },
          data: { folderId: folder?.id ?? null, path },
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new HttpError(409, `A file named "${file.name}" already exists in the destination folder`, {
            cause: error,
          });
        }
        throw error;
      }
      await emitWorkspaceEvent(tx, {
        workspaceId,
        type: "file.updated",
        data: { ...fileEventData(moved), previous_path: file.path },
        subject: moved.id,
      });
    }
    return locked.length;
  });
}
