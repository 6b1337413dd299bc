/**
 * `ensureFolderPath(db | tx, workspaceId, path, createdBy)`: makes sure every folder of `path`
 * exists in the workspace and returns the deepest one (`null` for the root: "", "/").
 *
 * For the upload routes (`folder` field of direct, remote and multipart uploads):
 *
 *   const file = await app.db.$transaction(async (tx) => {
 *     const folder = await ensureFolderPath(tx, workspaceId, body.folder ?? "", request.auth.keyId);
 *     return tx.file.create({ data: { ..., folderId: folder?.id ?? null,
 *                                      path: folder ? `${folder.path}/${name}` : name } });
 *   });
 *
 * - Normalises the path: empty segments dropped (`/a//b/` is `a/b`), each segment trimmed; a 400
 *   `HttpError` (rendered in the caller's envelope) for `.`/`..`, `\`, control characters, a path
 *   over MAX_PATH_BYTES or deeper than MAX_FOLDER_DEPTH. Names are case-sensitive.
 * - Creates the missing levels (`photos`, then `photos/2024`), recording `createdBy` (the API key
 *   id, or null), and enqueues a `folder.created` event for each (src/webhooks/workspace-events.ts).
 * - Concurrency: two requests creating the same path both succeed and get the same folder. Each
 *   insert is `ON CONFLICT DO NOTHING` against the unique (workspace_id, path), followed by the
 *   lookup again, so no unique violation ever aborts the caller's transaction.
 * - Call it with the transaction that inserts the file, and build the file's path from the
 *   returned folder's `path`: every level is read `FOR SHARE`, so a concurrent rename or delete of
 *   one of these folders waits until that transaction commits (and then moves the new file with
 *   the folder, or refuses to delete a folder that is no longer empty). A rename that committed
 *   first makes the lookup miss, and the requested path is created afresh.
 * - No storage I/O happens here; keep it that way inside the caller's transaction (PGlite runs one
 *   transaction at a time).
 * - An upload into a folder that already exists does not come here: its insert finds and locks the
 *   levels the same way in one statement (src/uploads/insert-file-row.ts, `inFolder`), and falls
 *   back to this when a level is missing. A change to the locking here belongs there too.
 */
import type { Folder } from "../generated/prisma/client.js";
import { folderEventData } from "../webhooks/event-data.js";
import { type EventDb, emitWorkspaceEvent } from "../webhooks/workspace-events.js";
import { assertFolderPathFits, splitFolderPath } from "./folder-path.js";
import { type FolderDb, insertFolder } from "./insert-folder.js";

/** A folder created and removed again between our insert and our lookup, this many times: give up. */
const MAX_LEVEL_ATTEMPTS = 3;

async function lockFolderIdByPath(db: FolderDb, workspaceId: string, path: string): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM folders WHERE workspace_id = ${workspaceId}::uuid AND path = ${path} FOR SHARE`;
  return rows[0]?.id ?? null;
}

export async function ensureFolderPath(
  db: FolderDb & EventDb,
  workspaceId: string,
  path: string,
  createdBy: string | null,
): Promise<Folder | null> {
  const segments = splitFolderPath(path);
  if (segments.length === 0) return null;
  assertFolderPathFits(segments.join("/"));

  let parentId: string | null = null;
  let current = "";
  for (const name of segments) {
    current = current === "" ? name : `${current}/${name}`;
    let id: string | null = null;
    for (let attempt = 0; id === null && attempt < MAX_LEVEL_ATTEMPTS; attempt++) {
      id = await lockFolderIdByPath(db, workspaceId, current);
      if (id !== null) break;
      const inserted = await insertFolder(db, { workspaceId, parentId, name, path: current, createdBy });
      id = inserted.folder?.id ?? null;
      if (inserted.folder) {
        await emitWorkspaceEvent(db, {
          workspaceId,
          type: "folder.created",
          data: folderEventData(inserted.folder),
          subject: inserted.folder.id,
        });
      }
    }
    if (id === null) throw new Error(`Could not create folder "${current}": it keeps disappearing`);
    parentId = id;
  }
  return db.folder.findUniqueOrThrow({ where: { id: parentId as string } });
}
