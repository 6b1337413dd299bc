import type { UploadResponse, WrappedUploadResponse } from "@trove/schema";
import type { UploadResponseForm } from "../config.js";
import { fileUrl, thumbnailUrl, type UrlBuilder } from "../files/file-urls.js";
import { toVideoFields } from "../files/video-fields.js";
import type { File, Folder } from "../generated/prisma/client.js";
import { toPlaceholder } from "../placeholders/placeholder-fields.js";
import { reportedDuplicate, type UploadCredential } from "./upload-credential.js";

/**
 * The body the endpoint sends: the hosted service's documented `{ success: true, data }` with
 * every flat field in `data` (plus its `file_size` and `workspace_no`), or the flat record.
 */
export function uploadResponseBody(
  form: UploadResponseForm,
  workspaceNo: string,
  record: UploadResponse,
): UploadResponse | WrappedUploadResponse {
  if (form === "flat") return record;
  return { success: true, data: { ...record, file_size: record.size, workspace_no: workspaceNo } };
}

/**
 * A stored file as the flat upload response of direct and remote-URL uploads (and their webhook),
 * as `credential` may see it: a public key or token is never handed a signed URL (a private
 * file's `url` and `thumbnail` are its plain URLs, which answer 404) nor a true `is_duplicate`
 * (./upload-credential.ts).
 */
export function toUploadResponse(
  app: UrlBuilder,
  workspaceNo: string,
  stored: File,
  folder: Pick<Folder, "folderNo"> | null,
  isDuplicate: boolean,
  credential: UploadCredential,
): UploadResponse {
  const row = credential === "private" ? stored : { ...stored, isPrivate: false };
  const metadata = row.metadata;
  return {
    id: row.id,
    file_no: String(row.fileNo),
    workspace_id: row.workspaceId,
    name: row.name,
    path: row.path,
    url: fileUrl(app, workspaceNo, row),
    width: row.width,
    height: row.height,
    size: Number(row.size),
    mime_type: row.mimeType,
    tags: row.tags,
    metadata:
      metadata !== null && typeof metadata === "object" && !Array.isArray(metadata)
        ? (metadata as Record<string, unknown>)
        : {},
    custom_id: row.customId,
    folder_no: folder?.folderNo ?? null,
    is_duplicate: reportedDuplicate(credential, isDuplicate),
    created_at: row.createdAt.toISOString(),
    upload_source: row.uploadSource,
    thumbnail: row.thumbnailKey ? thumbnailUrl(app, workspaceNo, row) : null,
    extension: row.extension,
    format: row.format,
    hash: row.hash,
    is_private: stored.isPrivate,
    expires_at: stored.expiresAt?.toISOString() ?? null,
    // Null on a fresh upload: computed in the background just after it (src/placeholders/).
    placeholder: toPlaceholder(stored),
    ...toVideoFields(stored),
  };
}
