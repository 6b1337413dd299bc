/**
 * Deleting a workspace, for the admin API and `trove-server workspaces delete`.
 *
 *   await deleteWorkspace(db, workspace, { force: false })   // WorkspaceNotEmptyError if it holds files
 *   await deleteWorkspace(db, workspace, { force: true })    // "deleting": disabled now, removed by a job
 *
 * A workspace without files is deleted at once (its keys, folders, sources, tokens and settings go
 * with it, by cascade). One that holds files is refused unless forced; forced, it is disabled
 * (keys 401, files 404) and a `workspace.delete` job is enqueued in the same transaction. The job
 * removes the files in batches, each batch's rows deleted in the transaction that enqueues the
 * durable removal of their objects (`storage.delete-objects`, src/files/delete-objects-job.ts),
 * then the cached origin objects the same way, then the workspace row. A crash anywhere leaves a
 * job that resumes where the rows say it stopped, so no object outlives its rows for good.
 */
import { DELETE_OBJECTS_JOB_KIND } from "../files/delete-objects-job.js";
import { fileCount } from "../files/file-counts.js";
import type { Prisma, PrismaClient, Workspace } from "../generated/prisma/client.js";
import { type ClaimedJob, enqueueJob } from "../jobs/job-queue.js";

export const DELETE_WORKSPACE_JOB_KIND = "workspace.delete";
/** Files (or origin objects) removed per transaction: one batch's keys make one object job. */
const BATCH = 500;

export class WorkspaceNotEmptyError extends Error {
  override name = "WorkspaceNotEmptyError";
  constructor(readonly fileCount: number) {
    super(`The workspace holds ${fileCount} file(s); delete them first or force the delete`);
  }
}

export interface DeleteWorkspaceResult {
  status: "deleted" | "deleting";
  fileCount: number;
}

export async function deleteWorkspace(
  db: PrismaClient,
  workspace: Pick<Workspace, "id">,
  options: { force: boolean },
): Promise<DeleteWorkspaceResult> {
  const files = await fileCount(db, workspace.id);
  if (files === 0) {
    await db.workspace.deleteMany({ where: { id: workspace.id } });
    return { status: "deleted", fileCount: 0 };
  }
  if (!options.force) throw new WorkspaceNotEmptyError(files);
  await db.$transaction(async (tx) => {
    await tx.workspace.updateMany({
      where: { id: workspace.id, disabledAt: null },
      data: { disabledAt: new Date() },
    });
    await enqueueJob(tx, {
      kind: DELETE_WORKSPACE_JOB_KIND,
      payload: { workspaceId: workspace.id },
      orderKey: `workspace-delete:${workspace.id}`,
    });
  });
  return { status: "deleting", fileCount: files };
}

/** Deletes a batch of rows and enqueues the removal of their objects, in one transaction. */
async function removeBatch(
  db: PrismaClient,
  keys: string[],
  deleteRows: (tx: Prisma.TransactionClient) => Promise<unknown>,
): Promise<void> {
  await db.$transaction(async (tx) => {
    await deleteRows(tx);
    await enqueueJob(tx, { kind: DELETE_OBJECTS_JOB_KIND, payload: { keys } });
  });
}

/** The `workspace.delete` job: files, then origin objects, then the workspace row. */
export function createDeleteWorkspaceHandler(db: PrismaClient) {
  return async (job: ClaimedJob<{ workspaceId?: unknown }>): Promise<void> => {
    const workspaceId = job.payload?.workspaceId;
    if (typeof workspaceId !== "string") return;
    for (;;) {
      const files = await db.file.findMany({
        where: { workspaceId },
        select: { id: true, storageKey: true, thumbnailKey: true },
        take: BATCH,
      });
      if (files.length === 0) break;
      const keys = files.flatMap((file) => [
        file.storageKey,
        ...(file.thumbnailKey ? [file.thumbnailKey] : []),
      ]);
      await removeBatch(db, keys, (tx) =>
        tx.file.deleteMany({ where: { id: { in: files.map((file) => file.id) } } }),
      );
    }
    for (;;) {
      const objects = await db.originObject.findMany({
        where: { source: { workspaceId } },
        select: { id: true, storageKey: true },
        take: BATCH,
      });
      if (objects.length === 0) break;
      await removeBatch(
        db,
        objects.map((object) => object.storageKey),
        (tx) => tx.originObject.deleteMany({ where: { id: { in: objects.map((object) => object.id) } } }),
      );
    }
    await db.workspace.deleteMany({ where: { id: workspaceId } });
  };
}
