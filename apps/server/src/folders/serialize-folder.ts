/**
 * Folder rows -> the wire shapes of @trove/schema:
 *
 *   toFolderCreated(folder)              -> { name, folder_no }                 (POST /api/v1/folders)
 *   toFolderListRow(row)                 -> FolderListRow                      (GET /api/v1/folders)
 *   toFolderRecord(folder, workspaceNo)  -> FolderRecord                       (POST /api/v1/folders/rename/:folderNo)
 */
import type { CreateFolderResponse, FolderListRow, FolderRecord } from "@trove/schema";
import type { Folder } from "../generated/prisma/client.js";

/** `source` of every folder record: Trove folders are made through its API (or by uploads into a path). */
export const FOLDER_SOURCE = "api";

export function toFolderCreated(folder: Pick<Folder, "name" | "folderNo">): CreateFolderResponse {
  return { name: folder.name, folder_no: folder.folderNo };
}

export interface FolderListSource {
  folderNo: string;
  name: string;
  /** ISO 8601, formatted by the statement (src/db/iso-timestamp.ts). */
  createdAt: string;
  totalItems: bigint | number;
  totalSize: bigint | number;
}

export function toFolderListRow(row: FolderListSource): FolderListRow {
  return {
    folder_no: row.folderNo,
    name: row.name,
    created_at: row.createdAt,
    total_items: Number(row.totalItems),
    total_size: Number(row.totalSize),
  };
}

export function toFolderRecord(folder: Folder, workspaceNo: string): FolderRecord {
  return {
    id: folder.id,
    folder_no: folder.folderNo,
    name: folder.name,
    parent_folder: folder.parentId,
    workspace_id: folder.workspaceId,
    workspace_no: workspaceNo,
    is_delete: folder.isDelete,
    is_active: folder.isActive,
    created_by: folder.createdBy,
    created_at: folder.createdAt.toISOString(),
    updated_at: folder.updatedAt.toISOString(),
    source: FOLDER_SOURCE,
    path: folder.path,
    workspace: { workspace_no: workspaceNo },
  };
}
