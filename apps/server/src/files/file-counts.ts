/**
 * How many files a workspace or folder holds, without counting them. A trigger on `files` (migration
 * 20261126050000_file_counts) adds every insert, delete and move to `workspace_file_counts` and
 * `folder_file_counts` in the statement that makes the change, so the counts commit and roll back
 * with the rows, on every write path and on every instance. A count is the sum of its slots (at
 * most 16 rows by primary key), so reading one costs the same at 10 files or 10 million.
 *
 *   await fileCount(db, workspaceId)                     // files in the workspace
 *   await fileCount(db, workspaceId, folderNo)           // files directly in that folder; 0 if none
 *   await recountFiles(db, { fix: true })                 // the repair: recount from the rows
 */
import type { RawQuery } from "../db/direct-sql.js";
import { Prisma } from "../generated/prisma/client.js";

type RawDb = RawQuery;

interface TotalRow {
  total: bigint | number | null;
}

/**
 * A scalar query for the files in the workspace or, with `folderNo`, directly in that folder (not
 * below it; a folder_no that names no folder here has none), for use as a subquery: the file list
 * reads its page and its total in one statement.
 */
export function fileCountSql(workspaceId: string, folderNo?: string): Prisma.Sql {
  if (folderNo === undefined) {
    return Prisma.sql`SELECT coalesce(sum(files), 0) FROM workspace_file_counts WHERE workspace_id = ${workspaceId}::uuid`;
  }
  return Prisma.sql`
    SELECT coalesce(sum(c.direct_files), 0)
    FROM folders d JOIN folder_file_counts c ON c.folder_id = d.id
    WHERE d.workspace_id = ${workspaceId}::uuid AND d.folder_no = ${folderNo}`;
}

export async function fileCount(db: RawDb, workspaceId: string, folderNo?: string): Promise<number> {
  const [row] = await db.$queryRaw<TotalRow[]>`SELECT (${fileCountSql(workspaceId, folderNo)}) AS total`;
  return Number(row?.total ?? 0);
}

export interface RecountResult {
  /** Workspaces and folders whose stored count differed from their rows. */
  workspacesWrong: number;
  foldersWrong: number;
}

/**
 * Recounts every workspace and folder from the rows; with `fix`, replaces the stored counts.
 * Writers to `files` wait while it runs (readers do not), so nothing changes between the count
 * and the replacement. The counts cannot drift through Trove's own writes (they share the row's
 * statement); this is for rows changed with the trigger disabled (bulk loads) or restored from
 * an older backup.
 */
export async function recountFiles(db: RawDb, { fix }: { fix: boolean }): Promise<RecountResult> {
  const [row] = await db.$queryRaw<Array<{ workspaces_wrong: bigint; folders_wrong: bigint }>>`
    SELECT workspaces_wrong, folders_wrong FROM trove_recount_files(${fix})`;
  return {
    workspacesWrong: Number(row?.workspaces_wrong ?? 0),
    foldersWrong: Number(row?.folders_wrong ?? 0),
  };
}
