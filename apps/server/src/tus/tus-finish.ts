/**
 * A tus upload whose last byte arrived becomes a Trove file through the one registration every
 * upload path uses (src/uploads/register-file.ts: policy, sniffed type, embedded-metadata rule,
 * store-time transform, row, folder, token count, event and webhook), then answers with the
 * file's number and URL (the `Trove-File-No` and `Trove-File-Url` headers).
 *
 * Idempotent: a later PATCH at the full offset (a client that lost the answer) gets the same file.
 * A refusal of the content (4xx: type not allowed, image too large...) deletes the bytes and the
 * upload; a failure that may pass (5xx) keeps both, and the next PATCH tries again.
 */
import { HttpError } from "../errors/http-error.js";
import { toCompleteResult } from "../multipart/complete-result.js";
import type { AuthContext } from "../plugins/auth.js";
import { objectKey } from "../storage/driver.js";
import { registerFile } from "../uploads/register-file.js";
import type { UploadDeps } from "../uploads/upload-deps.js";
import { registrationFields } from "../uploads/upload-fields.js";
import { parseTusFields } from "./tus-fields.js";
import type { TroveTusStore } from "./tus-store.js";

export interface TusFinished {
  fileNo: string;
  url: string;
}

export async function finishTusUpload(
  upload: UploadDeps,
  store: TroveTusStore,
  auth: AuthContext,
  id: string,
): Promise<TusFinished> {
  const { db } = upload;
  const row = await store.row(id);
  if (row.completedFileId) {
    const file = await db.file.findUnique({ where: { id: row.completedFileId } });
    if (!file) throw new HttpError(404, "The file of this upload no longer exists");
    const result = toCompleteResult(upload, { workspaceNo: auth.workspaceNo, keyType: auth.keyType }, file);
    return { fileNo: result.file_no, url: result.url };
  }
  const length = Number(row.uploadLength);
  const fields = parseTusFields(row.metadata as Record<string, string>, upload.trustedRanges);
  const hash = await store.contentHash(row);

  // The object sits under its file's id, like every upload's.
  const key = objectKey(row.workspaceId, id, fields.file_name);
  if (row.storageKey !== key || row.storageUploadId) {
    await store.deps.bytes.finish(row, key);
    await db.tusUpload.update({ where: { id }, data: { storageKey: key, storageUploadId: null } });
  }

  try {
    const registered = await registerFile(upload, {
      workspaceId: row.workspaceId,
      workspaceNo: auth.workspaceNo,
      storageKey: key,
      fileId: id,
      size: length,
      hash,
      ...registrationFields(fields),
      workspaceEmbeddedMetadata: auth.embeddedMetadata,
      uploadSource: "tus",
      createdBy: row.createdBy,
      credential: row.keyType === "public" ? "public" : "private",
      policy: auth.policy,
      uploadTokenId: row.uploadTokenId,
      // Kept on a failure that may pass: the next PATCH at the full offset registers it again.
      deleteSourceOnError: false,
      inTransaction: async (tx, file) => {
        await tx.tusUpload.update({ where: { id }, data: { completedFileId: file.id } });
      },
    });
    return { fileNo: registered.response.file_no, url: registered.response.url };
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      // The content cannot become a file: trying again cannot help.
      await upload.storage.delete(key).catch(() => {});
      await db.tusUpload.deleteMany({ where: { id, completedFileId: null } });
    }
    throw error;
  }
}
