/**
 * The `video_outputs` rows (Prisma model VideoOutput): one per video transform's output, and the
 * state of the asynchronous lifecycle (issue #33):
 *
 *   (none) --first request--> pending --job claims--> running --> ready | failed
 *   ready, object missing --request--> pending (the job is enqueued again)
 *
 * Only the request whose INSERT made the row (ON CONFLICT DO NOTHING ... RETURNING) enqueues the
 * `video.render` job, in the same transaction: concurrent first requests, on any instance, make
 * one row and one job, and a row never exists without its job.
 */
import { streamingStepHeights } from "@trove/schema";
import type { PrismaClient } from "../generated/prisma/client.js";
import { enqueueJob } from "../jobs/job-queue.js";
import type { StorageDriver } from "../storage/driver.js";

export const VIDEO_RENDER_JOB_KIND = "video.render";

/** Attempts of a render that fails for a reason retrying may cure (storage, database). */
export const VIDEO_RENDER_MAX_ATTEMPTS = 3;

export interface VideoRenderPayload {
  cacheKey: string;
}

export type VideoOutputStatus = "pending" | "running" | "ready" | "failed";

export interface VideoOutputRow {
  cacheKey: string;
  fileId: string;
  transform: string;
  status: VideoOutputStatus;
  errorCode: string | null;
  mimeType: string | null;
  size: number | null;
  updatedAt: Date;
}

type Db = Pick<PrismaClient, "$queryRaw" | "$executeRaw" | "$transaction">;

export async function findVideoOutput(db: Db, cacheKey: string): Promise<VideoOutputRow | undefined> {
  const rows = await db.$queryRaw<Array<Omit<VideoOutputRow, "size"> & { size: bigint | null }>>`
    SELECT cache_key AS "cacheKey", file_id::text AS "fileId", transform, status,
           error_code AS "errorCode", mime_type AS "mimeType", size, updated_at AS "updatedAt"
      FROM video_outputs WHERE cache_key = ${cacheKey}`;
  const [row] = rows;
  return row ? { ...row, size: row.size === null ? null : Number(row.size) } : undefined;
}

/**
 * Makes the output's row and enqueues its job, unless a row exists already. True when this call
 * made it (the request that answers `triggered`).
 */
export async function triggerVideoOutput(
  db: Db,
  output: { cacheKey: string; fileId: string; transform: string },
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const inserted = await tx.$queryRaw<unknown[]>`
      INSERT INTO video_outputs (cache_key, file_id, transform, status)
      VALUES (${output.cacheKey}, ${output.fileId}::uuid, ${output.transform}, 'pending')
      ON CONFLICT (cache_key) DO NOTHING
      RETURNING cache_key`;
    if (inserted.length === 0) return false;
    await enqueueRender(tx, output.cacheKey);
    return true;
  });
}

/**
 * A `ready` row whose object is gone (removed by hand, or a storage restored from an older copy):
 * back to `pending` with a new job. True when this call moved it (one caller enqueues).
 */
export async function requeueVideoOutput(db: Db, cacheKey: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const moved = await tx.$queryRaw<unknown[]>`
      UPDATE video_outputs SET status = 'pending', mime_type = NULL, size = NULL, updated_at = now()
       WHERE cache_key = ${cacheKey} AND status = 'ready'
      RETURNING cache_key`;
    if (moved.length === 0) return false;
    await enqueueRender(tx, cacheKey);
    return true;
  });
}

async function enqueueRender(tx: Parameters<typeof enqueueJob>[0], cacheKey: string): Promise<void> {
  const payload: VideoRenderPayload = { cacheKey };
  await enqueueJob(tx, {
    kind: VIDEO_RENDER_JOB_KIND,
    payload: { ...payload },
    maxAttempts: VIDEO_RENDER_MAX_ATTEMPTS,
  });
}

/**
 * The job's claim on its row: `running`, with what it renders. Undefined when there is nothing to
 * do: the row is gone (its file was deleted) or already finished (a repeated job).
 */
export async function startVideoOutput(
  db: Db,
  cacheKey: string,
): Promise<{ transform: string; fileId: string; storageKey: string } | undefined> {
  const rows = await db.$queryRaw<Array<{ transform: string; fileId: string; storageKey: string }>>`
    UPDATE video_outputs o SET status = 'running', updated_at = now()
      FROM files f
     WHERE o.cache_key = ${cacheKey} AND f.id = o.file_id AND o.status IN ('pending', 'running')
    RETURNING o.transform, o.file_id::text AS "fileId", f.storage_key AS "storageKey"`;
  return rows[0];
}

/** The output is stored: serve it. False when the row is gone meanwhile (its file was deleted). */
export async function finishVideoOutput(
  db: Db,
  cacheKey: string,
  output: { mimeType: string; size: number },
): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE video_outputs
       SET status = 'ready', mime_type = ${output.mimeType}, size = ${output.size}, error_code = NULL,
           updated_at = now(), last_used_at = now()
     WHERE cache_key = ${cacheKey} AND status = 'running'`;
  return count === 1;
}

/** The render failed for good: the URL answers 422 with `code` from now on. */
export async function failVideoOutput(db: Db, cacheKey: string, code: string): Promise<void> {
  await db.$executeRaw`
    UPDATE video_outputs SET status = 'failed', error_code = ${code}, updated_at = now()
     WHERE cache_key = ${cacheKey} AND status IN ('pending', 'running')`;
}

/** A served output's use (callers keep it to once a minute). */
export async function touchVideoOutput(db: Db, cacheKey: string): Promise<void> {
  await db.$executeRaw`UPDATE video_outputs SET last_used_at = now() WHERE cache_key = ${cacheKey}`;
}

/**
 * The file's outputs beyond `max`, least recently used first, deleted with their objects. Rows
 * still rendering count toward the cap but are never taken from under their job.
 */
export async function evictVideoOutputs(
  db: Db,
  storage: Pick<StorageDriver, "delete" | "list">,
  fileId: string,
  max: number,
): Promise<number> {
  // Rows first: a request that finds the row gone triggers the output again, which is correct.
  const evicted = await db.$queryRaw<Array<{ cacheKey: string; transform: string }>>`
    DELETE FROM video_outputs
     WHERE cache_key IN (
           SELECT cache_key FROM (
                  SELECT cache_key, status FROM video_outputs
                   WHERE file_id = ${fileId}::uuid
                   ORDER BY last_used_at DESC, cache_key ASC
                  OFFSET ${max}) AS beyond
            WHERE beyond.status IN ('ready', 'failed'))
    RETURNING cache_key AS "cacheKey", transform`;
  for (const output of evicted) await deleteVideoOutputObjects(storage, output);
  return evicted.length;
}

/** An output's object, or every file of a streaming package (stored under `{cacheKey}/`). */
export async function deleteVideoOutputObjects(
  storage: Pick<StorageDriver, "delete" | "list">,
  output: { cacheKey: string; transform: string },
): Promise<void> {
  if (streamingStepHeights(output.transform) === null) return storage.delete(output.cacheKey);
  const files: string[] = [];
  for await (const object of storage.list(`${output.cacheKey}/`)) files.push(object.key);
  for (const key of files) await storage.delete(key);
}
