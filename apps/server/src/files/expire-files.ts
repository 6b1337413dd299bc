/**
 * Deletion of temporary files (issue #34 part 4): a file uploaded with `expires_in` (or under a
 * policy's `file_expires_in`) has an `expires_at`; once it has passed, the file is deleted exactly
 * as DELETE /api/v1/files/:fileNo deletes one (./file-service.ts `deleteFile`: the row, then its
 * object, thumbnail and variants through the durable `storage.delete-objects` job, the counts by
 * the row's trigger), with a `file.deleted` event whose `data.reason` is `"expired"`.
 *
 *   await sweepExpiredFiles({ db, storage, log });   // -> how many files this call deleted
 *
 * Every instance that runs workers sweeps on its own timer, every
 * TROVE_FILE_EXPIRY_SWEEP_INTERVAL_MS (src/jobs/start-workers.ts, the timer of
 * src/multipart/sweep-timer.ts). Instances sweeping at once never announce a file twice: the
 * delete is conditional on the row still being there, inside the event's transaction, so the
 * second instance's attempt deletes nothing, rolls back its event and moves on (a 404 here).
 *
 * Until the sweep reaches it, an expired file is already gone for readers: delivery and the files
 * API compare `expires_at` with the time of the request (./unexpired.ts,
 * src/delivery/access-check.ts), so the sweep's latency only delays freeing the storage.
 *
 * Oldest deadlines first, through the partial index on `expires_at` (migration
 * 20261128122000_temporary_files), at most BATCH files a query and MAX_BATCHES queries a sweep;
 * the rest wait for the next sweep.
 */
import { HttpError } from "../errors/http-error.js";
import { type DeleteFileDeps, deleteFile } from "./file-service.js";

const BATCH = 100;
const MAX_BATCHES = 20;

export async function sweepExpiredFiles(deps: DeleteFileDeps): Promise<number> {
  let deleted = 0;
  /** Files this sweep could not delete (storage or database errors): not retried until the next. */
  const skipped = new Set<string>();
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const expired = await deps.db.file.findMany({
      where: {
        expiresAt: { lte: new Date() },
        ...(skipped.size > 0 ? { id: { notIn: [...skipped] } } : {}),
      },
      select: { id: true, workspaceId: true, fileNo: true },
      orderBy: { expiresAt: "asc" },
      take: BATCH,
    });
    for (const file of expired) {
      try {
        await deleteFile(deps, file.workspaceId, file.fileNo, "expired");
        deleted++;
      } catch (error) {
        skipped.add(file.id);
        // Another instance, or a request, deleted it first: theirs is the event.
        if (error instanceof HttpError && error.status === 404) continue;
        deps.log.warn({ err: error, fileId: file.id }, "expired file not deleted; the next sweep retries");
      }
    }
    if (expired.length < BATCH) break;
  }
  return deleted;
}
