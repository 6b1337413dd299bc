/** The multipart-complete result (`data` of endpoint 5) of a registered file. */
import type { MultipartCompleteResult } from "@trove/schema";
import { fileUrl, type UrlBuilder } from "../files/file-urls.js";
import type { File } from "../generated/prisma/client.js";

export function toCompleteResult(app: UrlBuilder, workspaceNo: string, file: File): MultipartCompleteResult {
  return {
    id: file.id,
    file_no: String(file.fileNo),
    name: file.name,
    url: fileUrl(app, workspaceNo, file),
    path: file.path,
    width: file.width,
    height: file.height,
    format: file.format,
    file_size: Number(file.size),
    workspace_no: workspaceNo,
  };
}
