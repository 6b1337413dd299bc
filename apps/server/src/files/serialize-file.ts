/**
 * Database rows -> the wire shapes of @trove/schema (snake_case, `file_no` as a string, BigInt
 * sizes as JSON numbers, ISO timestamps):
 *
 *   toFileListRow(app, workspaceNo, row)  -> FileListRow   (GET /api/v1/files; note `thumbanil`)
 *   toFileDetails(app, row)               -> FileDetails   (GET /api/v1/files/:fileNo `data`)
 *   toFileRecord(app, workspaceNo, row)   -> FileRecord    (PATCH /api/v1/files/:fileNo/rename)
 *
 * Sizes are stored as BigInt; Number() is exact up to 2^53 bytes (8 PiB), far above any file.
 */
import type { FileDetails, FileListRow, FileRecord } from "@trove/schema";
import type { File, Folder, Workspace } from "../generated/prisma/client.js";
import { toListPlaceholder, toPlaceholder } from "../placeholders/placeholder-fields.js";
import { fileUrl, thumbnailUrl, type UrlBuilder } from "./file-urls.js";
import { toVideoFields } from "./video-fields.js";

export type FileListSource = Pick<
  File,
  | "id"
  | "fileNo"
  | "name"
  | "path"
  | "size"
  | "format"
  | "extension"
  | "width"
  | "height"
  | "thumbnailKey"
  | "isPrivate"
  | "placeholderThumbhash"
  | "placeholderColor"
> & {
  /** ISO 8601, formatted by the statement (src/db/iso-timestamp.ts). */
  createdAt: string;
};

export function toFileListRow(app: UrlBuilder, workspaceNo: string, row: FileListSource): FileListRow {
  return {
    file_no: String(row.fileNo),
    name: row.name,
    thumbanil: row.thumbnailKey ? thumbnailUrl(app, workspaceNo, row) : null,
    url: fileUrl(app, workspaceNo, row),
    file_size: Number(row.size),
    format: row.format,
    width: row.width,
    height: row.height,
    created_at: row.createdAt,
    workspace_no: workspaceNo,
    path: row.path,
    extension: row.extension,
    placeholder: toListPlaceholder(row),
  };
}

export type FileDetailsSource = File & {
  workspace: Pick<Workspace, "name" | "workspaceNo">;
  folder: Pick<Folder, "id" | "folderNo" | "name" | "path"> | null;
};

/** Who uploaded a file: the id of the API key that created it, or "system" (seeded, CLI). */
export function uploadedBy(row: Pick<File, "createdBy">): string {
  return row.createdBy ?? "system";
}

export function toFileDetails(app: UrlBuilder, row: FileDetailsSource): FileDetails {
  const url = fileUrl(app, row.workspace.workspaceNo, row);
  return {
    id: row.id,
    file_no: String(row.fileNo),
    name: row.name,
    url,
    path: row.path,
    format: row.format,
    dimensions: { width: row.width, height: row.height },
    size: Number(row.size),
    workspace: { name: row.workspace.name, workspace_no: row.workspace.workspaceNo },
    folder: row.folder
      ? { id: row.folder.id, folder_no: row.folder.folderNo, name: row.folder.name, path: row.folder.path }
      : null,
    uploaded_by: uploadedBy(row),
    uploaded_at: row.createdAt.toISOString(),
    asset_key: String(row.fileNo),
    asset_url: url,
    extension: row.extension,
    is_private: row.isPrivate,
    expires_at: row.expiresAt?.toISOString() ?? null,
    placeholder: toPlaceholder(row),
    ...toVideoFields(row),
  };
}

export function toFileRecord(app: UrlBuilder, workspaceNo: string, row: File): FileRecord {
  const size = Number(row.size);
  return {
    id: row.id,
    file_no: String(row.fileNo),
    name: row.name,
    folder_id: row.folderId,
    path: row.path,
    url: fileUrl(app, workspaceNo, row),
    original_url: row.originalUrl,
    workspace_id: row.workspaceId,
    workspace_no: workspaceNo,
    height: row.height,
    width: row.width,
    format: row.format,
    file_size: size,
    is_delete: row.isDelete,
    is_active: row.isActive,
    created_by: row.createdBy,
    meta_data: {
      size,
      width: row.width,
      format: row.mimeType,
      height: row.height,
      orientation: row.orientation,
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    transform_string: row.transformString,
    // How the file arrived (`direct`, `remote`, `multipart`, ...).
    source: row.uploadSource,
    // Trove has no notion of a workspace's default asset.
    is_default: false,
    orientation: row.orientation,
    extension: row.extension,
    placeholder: toPlaceholder(row),
    ...toVideoFields(row),
  };
}
