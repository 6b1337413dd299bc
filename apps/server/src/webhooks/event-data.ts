/**
 * The `data` of file and folder events (except `file.uploaded`, whose `data` is the upload
 * response). Built from the rows alone, so services can emit inside their transactions without
 * URL builders; receivers fetch details (URLs, dimensions) through the API when they need them.
 *
 *   file.deleted                    { ...fileEventData(file), reason: "deleted" | "expired" }
 *   file.updated                    fileEventData(file)
 *   file.renamed                    { ...fileEventData(file), previous_name, previous_path }
 *   folder.created, folder.deleted  folderEventData(folder)
 *   folder.renamed                  { ...folderEventData(folder), previous_name, previous_path }
 */
import type { File, Folder } from "../generated/prisma/client.js";

export interface FileEventData {
  id: string;
  file_no: string;
  name: string;
  path: string;
  folder_id: string | null;
  size: number;
  format: string;
  extension: string;
  is_private: boolean;
  updated_at: string;
}

export interface FolderEventData {
  id: string;
  folder_no: string;
  name: string;
  path: string;
  parent_id: string | null;
}

export interface RenamedEventData {
  previous_name: string;
  previous_path: string;
}

export type FileEventSource = Pick<
  File,
  "id" | "fileNo" | "name" | "path" | "folderId" | "size" | "format" | "extension" | "isPrivate" | "updatedAt"
>;

export function fileEventData(file: FileEventSource): FileEventData {
  return {
    id: file.id,
    file_no: String(file.fileNo),
    name: file.name,
    path: file.path,
    folder_id: file.folderId,
    size: Number(file.size),
    format: file.format,
    extension: file.extension,
    is_private: file.isPrivate,
    updated_at: file.updatedAt.toISOString(),
  };
}

export function folderEventData(
  folder: Pick<Folder, "id" | "folderNo" | "name" | "path" | "parentId">,
): FolderEventData {
  return {
    id: folder.id,
    folder_no: folder.folderNo,
    name: folder.name,
    path: folder.path,
    parent_id: folder.parentId,
  };
}
