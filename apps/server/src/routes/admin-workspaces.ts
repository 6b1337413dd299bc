/**
 * Admin API, workspaces (endpoints 101-105): create, list, get, update (rename, disable or enable,
 * strict transforms, embedded metadata), delete. Disabling or a new embedded_metadata drops this
 * instance's cached keys at once; other instances follow within `keyCacheMs`.
 */
import type { FastifyPluginAsync } from "fastify";
import { workspaceResource } from "../admin/admin-resources.js";
import { deleteWorkspace, WorkspaceNotEmptyError } from "../admin/delete-workspace.js";
import { workspaceOr404 } from "../admin/workspace-lookup.js";
import { isUniqueViolation } from "../db/prisma-errors.js";
import { HttpError } from "../errors/http-error.js";
import { fileCount } from "../files/file-counts.js";
import { createWorkspace } from "../keys/workspaces.js";
import { registerEndpoint } from "./endpoint-route.js";

export const adminWorkspaceRoutes: FastifyPluginAsync = async (app) => {
  /** The workspace's stored bytes (`workspace_usage`, kept by triggers; src/usage/). */
  const storedBytes = async (workspaceId: string) =>
    Number((await app.db.workspaceUsage.findUnique({ where: { workspaceId } }))?.storageBytes ?? 0);

  registerEndpoint(app, "adminCreateWorkspace", async (request) => {
    const { name, workspace_no } = request.body;
    try {
      const row = await createWorkspace(app.db, {
        name,
        secretKey: app.config.secretKey,
        ...(workspace_no ? { workspaceNo: workspace_no } : {}),
      });
      return workspaceResource(row, 0, 0);
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, `Workspace ${workspace_no} already exists`);
      throw error;
    }
  });

  registerEndpoint(app, "adminListWorkspaces", async (request) => {
    const { page, limit } = request.query;
    const [rows, total] = await Promise.all([
      app.db.workspace.findMany({ orderBy: { createdAt: "asc" }, skip: (page - 1) * limit, take: limit }),
      app.db.workspace.count(),
    ]);
    const counts = await app.db.workspaceFileCount.groupBy({
      by: ["workspaceId"],
      where: { workspaceId: { in: rows.map((row) => row.id) } },
      _sum: { files: true },
    });
    const files = new Map(counts.map((count) => [count.workspaceId, Number(count._sum.files ?? 0)]));
    const usage = await app.db.workspaceUsage.findMany({
      where: { workspaceId: { in: rows.map((row) => row.id) } },
    });
    const bytes = new Map(usage.map((row) => [row.workspaceId, Number(row.storageBytes)]));
    return {
      workspaces: rows.map((row) => workspaceResource(row, files.get(row.id) ?? 0, bytes.get(row.id) ?? 0)),
      total,
      page,
      limit,
    };
  });

  registerEndpoint(app, "adminGetWorkspace", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    return workspaceResource(
      workspace,
      await fileCount(app.db, workspace.id),
      await storedBytes(workspace.id),
    );
  });

  registerEndpoint(app, "adminUpdateWorkspace", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    const { name, disabled, strict_transforms, embedded_metadata, max_files, max_storage_bytes } =
      request.body;
    const quota = (value: number | null) => (value === null ? null : BigInt(value));
    const updated = await app.db.workspace.update({
      where: { id: workspace.id },
      data: {
        ...(name === undefined ? {} : { name }),
        ...(strict_transforms === undefined ? {} : { strictTransforms: strict_transforms }),
        ...(embedded_metadata === undefined ? {} : { embeddedMetadata: embedded_metadata }),
        ...(max_files === undefined ? {} : { maxFiles: quota(max_files) }),
        ...(max_storage_bytes === undefined ? {} : { maxStorageBytes: quota(max_storage_bytes) }),
        ...(disabled === undefined
          ? {}
          : { disabledAt: disabled ? (workspace.disabledAt ?? new Date()) : null }),
      },
    });
    // The cache holds keys by hash, not by workspace: dropping all of it is the cheap exact answer.
    // Cached keys carry the workspace's embedded_metadata setting too.
    if (disabled || embedded_metadata !== undefined) app.activeKeys.clear();
    return workspaceResource(updated, await fileCount(app.db, workspace.id), await storedBytes(workspace.id));
  });

  registerEndpoint(app, "adminDeleteWorkspace", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    try {
      const result = await deleteWorkspace(app.db, workspace, { force: request.query.force === "true" });
      app.activeKeys.clear();
      return { workspace_no: workspace.workspaceNo, status: result.status, file_count: result.fileCount };
    } catch (error) {
      if (error instanceof WorkspaceNotEmptyError) {
        throw new HttpError(409, `${error.message} (?force=true)`, { errorCode: "WORKSPACE_NOT_EMPTY" });
      }
      throw error;
    }
  });
};
