/**
 * The multipart-complete result (`data` of endpoint 5) of a registered file.
 *
 * `url` is the file's delivery URL. A private file's is signed only for a private key: a public
 * key or an upload token may upload a private file but never read it, so it gets the plain URL,
 * which the delivery host answers 404 until the file is public (issue #30: a complete, first or
 * repeated, never hands out a URL its caller could not obtain otherwise).
 */
import type { MultipartCompleteResult } from "@trove/schema";
import { fileUrl, type UrlBuilder } from "../files/file-urls.js";
import type { File } from "../generated/prisma/client.js";
import { toPlaceholder } from "../placeholders/placeholder-fields.js";
import type { AuthContext } from "../plugins/auth.js";

export function toCompleteResult(
  app: UrlBuilder,
  auth: Pick<AuthContext, "workspaceNo" | "keyType">,
  file: File,
): MultipartCompleteResult {
  const signed = auth.keyType === "private";
  return {
    id: file.id,
    file_no: String(file.fileNo),
    name: file.name,
    url: fileUrl(app, auth.workspaceNo, signed ? file : { ...file, isPrivate: false }),
    path: file.path,
    width: file.width,
    height: file.height,
    format: file.format,
    file_size: Number(file.size),
    workspace_no: auth.workspaceNo,
    expires_at: file.expiresAt?.toISOString() ?? null,
    placeholder: toPlaceholder(file),
  };
}
