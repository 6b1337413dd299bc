/**
 * File operations for one workspace (spec endpoints 7 to 9). Every lookup is scoped by
 * `workspaceId`, so another workspace's file_no is simply not found.
 *
 *   const file = await findFileDetails(db, workspaceId, fileNo);          // or throws 404 File not found
 *   const renamed = await renameFile(db, workspaceId, fileNo, "dog");      // File row; 404 / 409 / 400
 *   await deleteFile({ db, storage, log }, workspaceId, fileNo);           // or throws 404 File not found
 *
 * Rename: only the row changes (`name`, `path`). Storage keys are `<workspaceId>/<fileId>/<name
 * at upload>` (src/storage/driver.ts `objectKey`): opaque and unique by the file id, never read
 * back as a path, so the object stays where it is and a rename cannot half-fail between the
 * database and storage. The row is locked (`FOR UPDATE`) while the new path is computed from its
 * current one, so a concurrent folder rename cannot be overwritten with a stale folder path. A
 * clash with another file of the same folder is the database's unique (workspace_id, path): 409.
 * A `file.renamed` event is enqueued in the same transaction (src/webhooks/workspace-events.ts).
 *
 * Delete: the row goes first, together with a `storage.delete-objects` job and a `file.deleted`
 * event (its `data.reason`: `deleted`, or `expired` from the expiry sweep), in one transaction (no storage I/O inside it); then the objects (file and thumbnail) are deleted and the job
 * dropped. Failure after the commit leaves no row pointing at nothing, and the job makes sure the
 * orphaned objects are removed later (./delete-objects-job.ts). The opposite order (objects first)
 * could leave a row whose bytes are gone, served as 404 by delivery: worse for the caller.
 */
import type { FastifyBaseLogger } from "fastify";
import { isUniqueViolation } from "../db/prisma-errors.js";
import { HttpError, notFound } from "../errors/index.js";
import { assertPathFits } from "../folders/folder-path.js";
import type { File, PrismaClient } from "../generated/prisma/client.js";
import { enqueueJob } from "../jobs/job-queue.js";
import type { StorageDriver } from "../storage/driver.js";
import { fileEventData } from "../webhooks/event-data.js";
import { emitWorkspaceEvent } from "../webhooks/workspace-events.js";
import {
  DELETE_OBJECTS_JOB_KIND,
  type DeleteObjectsPayload,
  deleteUnreferencedObjects,
} from "./delete-objects-job.js";
import { renamedFileName } from "./file-name.js";
import type { FileDetailsSource } from "./serialize-file.js";
import { unexpired, unexpiredSql } from "./unexpired.js";

/** When the job runs if the request's own attempt did not finish it. */
const DELETE_JOB_DELAY_MS = 60_000;
const DELETE_JOB_MAX_ATTEMPTS = 20;

/**
 * Makes a file private or public (endpoint 20). The delivery host reads `is_private` per request,
 * so the change applies to the next request; URLs a shared cache already holds of a public file
 * stay there until their max-age (a year for stored files: purge the CDN when hiding a file).
 */
export async function setFilePrivacy(
  db: PrismaClient,
  workspaceId: string,
  fileNo: bigint,
  isPrivate: boolean,
): Promise<FileDetailsSource> {
  // The `file.updated` event commits with the change, or neither does.
  await db.$transaction(async (tx) => {
    const current = await tx.file.findFirst({
      where: { workspaceId, fileNo, ...unexpired() },
      select: { id: true },
    });
    if (!current) throw notFound("files");
    const file = await tx.file.update({
      where: { id: current.id },
      data: { isPrivate, updatedAt: new Date() },
    });
    await emitWorkspaceEvent(tx, {
      workspaceId,
      type: "file.updated",
      data: fileEventData(file),
      subject: file.id,
    });
  });
  return findFileDetails(db, workspaceId, fileNo);
}

export async function findFileDetails(
  db: Pick<PrismaClient, "file">,
  workspaceId: string,
  fileNo: bigint,
): Promise<FileDetailsSource> {
  const file = await db.file.findFirst({
    where: { workspaceId, fileNo, ...unexpired() },
    include: {
      workspace: { select: { name: true, workspaceNo: true } },
      folder: { select: { id: true, folderNo: true, name: true, path: true } },
    },
  });
  if (!file) throw notFound("files");
  return file;
}

/** Rename's 404: `{ error: "File <no> not found", code: "FILE_NOT_FOUND" }`. */
export function renameNotFound(fileNo: string): HttpError {
  return new HttpError(404, `File ${fileNo} not found`, { code: "FILE_NOT_FOUND" });
}

interface LockedFile {
  id: string;
  name: string;
  path: string;
  extension: string;
}

export async function renameFile(
  db: PrismaClient,
  workspaceId: string,
  fileNo: bigint,
  requestedName: string,
): Promise<File> {
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<LockedFile[]>`
      SELECT id::text AS id, name, path, extension FROM files f
      WHERE workspace_id = ${workspaceId}::uuid AND file_no = ${fileNo} AND ${unexpiredSql("f")}
      FOR UPDATE`;
    if (!locked) throw renameNotFound(String(fileNo));
    const name = renamedFileName(requestedName, locked.extension);
    if (name === locked.name) return tx.file.findUniqueOrThrow({ where: { id: locked.id } });
    // The folder part of the current path ("photos/2024/" or ""); names never contain "/".
    const path = locked.path.slice(0, locked.path.lastIndexOf("/") + 1) + name;
    assertPathFits(path);
    let renamed: File;
    try {
      renamed = await tx.file.update({ where: { id: locked.id }, data: { name, path } });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new HttpError(409, `A file named "${name}" already exists in this folder`, { cause: error });
      }
      throw error;
    }
    await emitWorkspaceEvent(tx, {
      workspaceId,
      type: "file.renamed",
      data: { ...fileEventData(renamed), previous_name: locked.name, previous_path: locked.path },
      subject: renamed.id,
    });
    return renamed;
  });
}

export interface DeleteFileDeps {
  db: PrismaClient;
  storage: Pick<StorageDriver, "delete" | "list">;
  log: Pick<FastifyBaseLogger, "warn">;
}

/**
 * Why a file was deleted, as its `file.deleted` event's `data.reason` says: `deleted` through
 * the API (DELETE /api/v1/files/:fileNo), `expired` by the expiry sweep (./expire-files.ts).
 */
export type FileDeleteReason = "deleted" | "expired";

/**
 * `deleted`: a file past its `expires_at` is already gone for the API (404), the sweep's to
 * delete. `expired`: only a file past it, judged on the database's rows at the time of the call.
 */
export async function deleteFile(
  deps: DeleteFileDeps,
  workspaceId: string,
  fileNo: bigint,
  reason: FileDeleteReason = "deleted",
): Promise<void> {
  const { db } = deps;
  const now = new Date();
  const file = await db.file.findFirst({
    where: { workspaceId, fileNo, ...(reason === "expired" ? { expiresAt: { lte: now } } : unexpired(now)) },
  });
  if (!file) throw notFound("files");
  const keys = [file.storageKey, ...(file.thumbnailKey ? [file.thumbnailKey] : [])];
  const payload: DeleteObjectsPayload = { keys };

  const jobId = await db.$transaction(async (tx) => {
    const deleted = await tx.file.deleteMany({ where: { id: file.id, workspaceId } });
    // Deleted by a concurrent request (or another instance's sweep) meanwhile: that one owns
    // the cleanup and the event, so each deletion is announced once.
    if (deleted.count === 0) throw notFound("files");
    await emitWorkspaceEvent(tx, {
      workspaceId,
      type: "file.deleted",
      data: { ...fileEventData(file), reason },
      subject: file.id,
    });
    const job = await enqueueJob(tx, {
      kind: DELETE_OBJECTS_JOB_KIND,
      payload: { ...payload },
      runAt: new Date(Date.now() + DELETE_JOB_DELAY_MS),
      maxAttempts: DELETE_JOB_MAX_ATTEMPTS,
    });
    return job.id;
  });

  try {
    await deleteUnreferencedObjects(deps, keys);
  } catch (error) {
    deps.log.warn(
      { err: error, fileId: file.id, jobId },
      "stored objects of a deleted file not removed yet; left to the job",
    );
    return;
  }
  // Done: the job is not needed (a runner that already claimed it just repeats a no-op).
  await db.job.deleteMany({ where: { id: jobId, status: "pending" } }).catch((error: unknown) => {
    deps.log.warn({ err: error, jobId }, "could not drop a finished storage.delete-objects job");
  });
}
