/**
 * Serves a stored file from the delivery host: `{workspace_no}/{path...}`.
 *
 * - Found by workspace_no + the file's `path` (`photos/2024/cat.jpg`); only active, non-deleted,
 *   non-private files (./access-check.ts) of a workspace that is not disabled. Anything else is
 *   404 `{ error: "File not found" }`.
 * - Answered by ./stored-object-sender.ts: ETag, ranges, conditional requests, streamed.
 * - `fallback` answers when no file has the requested path (the delivery-time transforms of
 *   ./variant-delivery.ts, `{workspace_no}/{transform}/{path}`). The files it may answer from
 *   (`basePaths`) are looked up in the same query as the path itself, so a variant costs one file
 *   lookup, like a stored file.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../errors/index.js";
import { deliveryAccess } from "./access-check.js";
import type { DeliveryDeps } from "./delivery-deps.js";
import { DELIVERY_FILE_SELECT, type DeliveryFile, PUBLIC_CACHE_CONTROL } from "./delivery-file.js";
import { sendStoredObject } from "./stored-object-sender.js";

/** Answers requests for paths that name no file (the delivery-time transforms). */
export interface DeliveryFallback {
  /** Paths of the files that may answer a request for `path`, best first; [] when none can. */
  basePaths(path: string): string[];
  /**
   * Whether `path` is the fallback's alone: a file stored at that very path (one named before
   * such names were refused) must not answer it.
   */
  claims(path: string): boolean;
  /**
   * Called when no file has the requested path, with the rows found at `basePaths(path)`
   * (by path); resolves true when it answered the request, false for a 404.
   */
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    target: { workspaceNo: string; path: string; strictTransforms: boolean },
    bases: ReadonlyMap<string, DeliveryFile>,
  ): Promise<boolean>;
}

export interface FileDelivery {
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    target: { workspaceNo: string; path: string },
  ): Promise<FastifyReply>;
}

export function fileDelivery(
  app: Pick<DeliveryDeps, "db" | "storage" | "config">,
  fallback?: DeliveryFallback,
): FileDelivery {
  return {
    async serve(request, reply, target) {
      const workspace = await app.db.workspace.findUnique({
        where: { workspaceNo: target.workspaceNo },
        select: { id: true, strictTransforms: true, disabledAt: true },
      });
      // A disabled workspace's files are answered like unknown ones.
      if (!workspace || workspace.disabledAt) throw notFound("files");
      const basePaths = fallback?.basePaths(target.path) ?? [];
      const claimed = fallback?.claims(target.path) ?? false;
      const paths = claimed ? basePaths : [target.path, ...basePaths];
      // One query for the path and the files a fallback may answer from (unique index each).
      const rows =
        paths.length === 1
          ? [
              await app.db.file.findUnique({
                where: { workspaceId_path: { workspaceId: workspace.id, path: paths[0] as string } },
                select: DELIVERY_FILE_SELECT,
              }),
            ].filter((row) => row !== null)
          : await app.db.file.findMany({
              where: { workspaceId: workspace.id, path: { in: paths } },
              select: DELIVERY_FILE_SELECT,
            });
      const byPath = new Map(rows.map((row) => [row.path, row]));
      const file = claimed ? undefined : byPath.get(target.path);
      if (
        !file &&
        fallback &&
        (await fallback.serve(
          request,
          reply,
          { ...target, strictTransforms: workspace.strictTransforms },
          byPath,
        ))
      ) {
        return reply;
      }
      if (!file) throw notFound("files");
      const access = deliveryAccess(
        app,
        request,
        { workspaceNo: target.workspaceNo, transform: "" },
        file,
        PUBLIC_CACHE_CONTROL,
      );
      if (!access) throw notFound("files");
      const stat = await app.storage.stat(file.storageKey);
      if (!stat) {
        request.log.warn({ storageKey: file.storageKey }, "file row without a stored object");
        throw notFound("files");
      }

      return sendStoredObject(app.storage, request, reply, {
        storageKey: file.storageKey,
        size: stat.size,
        hash: file.hash,
        mimeType: file.mimeType,
        updatedAt: file.updatedAt,
        cacheControl: access.cacheControl,
      });
    },
  };
}
