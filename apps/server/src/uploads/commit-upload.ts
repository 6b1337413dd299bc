/**
 * The database half of registration: the file row, and with it in one transaction its folder path,
 * the upload token's count, the caller's own work (`inTransaction`), the upload's webhook and the
 * workspace's `file.uploaded` event. Storage I/O is done before this, so the transaction holds only
 * database work (PGlite runs one transaction at a time).
 *
 * A file with no more work to commit with it, in the root or in a folder whose every level
 * exists, is one statement and no transaction, unless a webhook endpoint wants the upload: then
 * the statement inserts nothing (it decides in its own snapshot) and the file is inserted with its
 * deliveries in the transaction. So does a folder upload whose statement finds a level missing:
 * creating folders emits `folder.created` events, which the transaction path (ensureFolderPath)
 * owns.
 */
import { ensureFolderPath } from "../folders/ensure-folder-path.js";
import { assertFolderPathFits, splitFolderPath } from "../folders/folder-path.js";
import { spendUploadToken } from "../keys/upload-tokens.js";
import { enqueueWebhook, FILE_UPLOADED, fileUploadedEvent } from "../webhooks/delivery.js";
import { emitWorkspaceEvent, subscribedSql } from "../webhooks/workspace-events.js";
import { type PlacedFileRow, placeFileRow, type UnplacedFileRow } from "./place-file-row.js";
import type { RegisteredFile, RegisterFileInput } from "./register-file-input.js";
import type { DescribedFile } from "./sniff-upload.js";
import type { UploadDeps } from "./upload-deps.js";
import { toUploadResponse } from "./upload-response.js";

export async function commitUpload(
  deps: UploadDeps,
  input: RegisterFileInput,
  fileId: string,
  baseName: string,
  described: DescribedFile,
): Promise<RegisteredFile> {
  const row: UnplacedFileRow = {
    id: fileId,
    workspaceId: input.workspaceId,
    storageKey: described.key,
    size: described.size,
    mimeType: described.mimeType,
    format: described.format,
    extension: described.extension,
    width: described.width,
    height: described.height,
    orientation: described.orientation,
    hash: typeof described.hash === "string" ? described.hash : described.hash(),
    tags: input.tags ?? [],
    metadata: input.metadata ?? {},
    customId: input.customId ?? null,
    uploadSource: input.uploadSource,
    transformString: described.transformString,
    originalUrl: input.originalUrl ?? null,
    thumbnailKey: described.thumbnailKey,
    createdBy: input.createdBy,
    isPrivate: input.isPrivate ?? false,
    expiresIn: input.expiresIn ?? null,
    // Every raster image whose header was read has a thumbnail key (process-uploaded-image.ts).
    placeholderPending: deps.placeholders !== false && described.thumbnailKey !== null,
    duration: described.duration ?? null,
    videoCodec: described.videoCodec ?? null,
    audioCodec: described.audioCodec ?? null,
  };

  // The uploader's answer, which webhooks of this upload carry too; metrics count the real one.
  const credential = input.credential ?? "private";

  const segments = splitFolderPath(input.folder ?? "");
  const alone = !input.inTransaction && !input.webhookUrl && !input.uploadTokenId;
  if (alone) {
    // The checks ensureFolderPath makes before it creates anything, made here too: a refused
    // path is refused before any statement, whichever path the upload takes.
    if (segments.length > 0) assertFolderPathFits(segments.join("/"));
    const placed = await placeFileRow(deps.db, deps.sql ?? deps.db, row, baseName, null, {
      unless: subscribedSql(input.workspaceId, FILE_UPLOADED),
      ...(segments.length > 0 ? { inFolder: segments } : {}),
    });
    if (placed) {
      const response = toUploadResponse(
        deps,
        input.workspaceNo,
        placed.file,
        placed.folder,
        placed.isDuplicate,
        credential,
      );
      return { ...placed, response, webhook: null };
    }
  }

  return deps.db.$transaction(async (tx) => {
    const folder = await ensureFolderPath(tx, input.workspaceId, input.folder ?? "", input.createdBy);
    // Without `unless`, placeFileRow finds a name or throws: never null.
    const { file, isDuplicate } = (await placeFileRow(tx, tx, row, baseName, folder)) as PlacedFileRow;
    // Counted with the row: a refusal here rolls the row back, and the caller removes the objects.
    if (input.uploadTokenId) await spendUploadToken(tx, input.uploadTokenId);
    if (input.inTransaction) await input.inTransaction(tx, file);
    const response = toUploadResponse(deps, input.workspaceNo, file, folder, isDuplicate, credential);
    const webhook = input.webhookUrl
      ? await enqueueWebhook(tx, {
          workspaceId: input.workspaceId,
          url: input.webhookUrl,
          payload: fileUploadedEvent(response),
          signWithUrlKey: input.credential === "public",
          ...(deps.trustedRanges === undefined ? {} : { trustedRanges: deps.trustedRanges }),
          ...(deps.webhookMaxAttempts === undefined ? {} : { maxAttempts: deps.webhookMaxAttempts }),
        })
      : null;
    await emitWorkspaceEvent(tx, {
      workspaceId: input.workspaceId,
      type: FILE_UPLOADED,
      // The workspace's own receivers get the record as a private key sees it.
      data:
        credential === "private"
          ? response
          : toUploadResponse(deps, input.workspaceNo, file, folder, isDuplicate, "private"),
      subject: file.id,
    });
    return { file, folder, isDuplicate, response, webhook };
  });
}
