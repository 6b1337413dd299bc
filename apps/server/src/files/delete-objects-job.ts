/**
 * Durable removal of stored objects whose file rows are gone (job kind `storage.delete-objects`).
 *
 * DELETE /api/v1/files/:fileNo removes the row and enqueues this job in ONE transaction, then
 * deletes the objects at once and drops the job when that worked. If the process dies or storage
 * fails in between, the job is still there and a job runner finishes the work later, so an object
 * that no row points at never stays behind for good:
 *
 *   runner.register(DELETE_OBJECTS_JOB_KIND, createDeleteObjectsHandler({ db: app.db, storage: app.storage }));
 *
 * Deleting is idempotent (a missing object is not an error) and skips any key a file row still
 * references, so a late or repeated run can never take bytes from a live file.
 */

import type { PrismaClient } from "../generated/prisma/client.js";
import type { ClaimedJob } from "../jobs/job-queue.js";
import type { StorageDriver } from "../storage/driver.js";
import { deleteVariants } from "../uploads/delete-file-objects.js";

export const DELETE_OBJECTS_JOB_KIND = "storage.delete-objects";

export interface DeleteObjectsPayload {
  keys: string[];
}

export interface DeleteObjectsDeps {
  db: Pick<PrismaClient, "file">;
  storage: Pick<StorageDriver, "delete" | "list">;
}

/**
 * Deletes every key no file row references any more, with the delivery variants cached from it.
 * Throws on the first storage failure.
 */
export async function deleteUnreferencedObjects(
  deps: DeleteObjectsDeps,
  keys: readonly string[],
): Promise<void> {
  const unique = [...new Set(keys.filter((key) => key !== ""))];
  if (unique.length === 0) return;
  const referenced = await deps.db.file.findMany({
    where: { OR: [{ storageKey: { in: unique } }, { thumbnailKey: { in: unique } }] },
    select: { storageKey: true, thumbnailKey: true },
  });
  const live = new Set(referenced.flatMap((row) => [row.storageKey, row.thumbnailKey]));
  for (const key of unique) {
    if (live.has(key)) continue;
    // Variants first: while the source object exists a retry can still find and remove them.
    await deleteVariants(deps.storage, key);
    await deps.storage.delete(key);
  }
}

export function createDeleteObjectsHandler(deps: DeleteObjectsDeps) {
  return async (job: ClaimedJob<DeleteObjectsPayload>): Promise<void> => {
    const keys = Array.isArray(job.payload?.keys)
      ? job.payload.keys.filter((k) => typeof k === "string")
      : [];
    await deleteUnreferencedObjects(deps, keys);
  };
}
