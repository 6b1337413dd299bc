/**
 * The one read of minting a signed URL (`POST /api/v1/files/{fileNo}/signed-url`): the file's id
 * and path, which are all the signature binds (src/signing/delivery-signature.ts), by its number
 * within the caller's workspace.
 *
 *   const { id, path } = await findFileToSign(app.database.sql, workspaceId, fileNo);  // or 404 File not found
 *
 * One statement on the direct path (src/db/direct-sql.ts), a named prepared statement on `pg`:
 * the same rows the file details lookup (./file-service.ts) finds, with the same 404, without
 * loading the workspace and folder that lookup joins for the details body, which minting never
 * reads. Going through Prisma cost most of the route's CPU (bench/RESULTS.md, row 16).
 */
import type { RawQuery } from "../db/direct-sql.js";
import { notFound } from "../errors/index.js";
import { unexpiredSql } from "./unexpired.js";

export interface FileToSign {
  id: string;
  path: string;
}

export async function findFileToSign(
  sql: RawQuery,
  workspaceId: string,
  fileNo: bigint,
): Promise<FileToSign> {
  const [file] = await sql.$queryRaw<FileToSign[]>`
    SELECT f.id::text AS id, f.path FROM files f
     WHERE f.workspace_id = ${workspaceId}::uuid AND f.file_no = ${fileNo} AND ${unexpiredSql("f")}`;
  if (!file) throw notFound("files");
  return file;
}
