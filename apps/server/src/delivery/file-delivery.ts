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
 * - The workspace and those files are one statement on the direct path (src/db/direct-sql.ts):
 *   every delivery request makes it, and through Prisma the two lookups it replaced were a fifth
 *   of the CPU of a fresh render (bench 11) and most of a cached one's.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RawQuery } from "../db/direct-sql.js";
import { notFound } from "../errors/index.js";
import { deliveryAccess } from "./access-check.js";
import type { DeliveryDeps } from "./delivery-deps.js";
import { type DeliveryFile, PUBLIC_CACHE_CONTROL } from "./delivery-file.js";
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
  app: Pick<DeliveryDeps, "sql" | "storage" | "config">,
  fallback?: DeliveryFallback,
): FileDelivery {
  return {
    async serve(request, reply, target) {
      const basePaths = fallback?.basePaths(target.path) ?? [];
      const claimed = fallback?.claims(target.path) ?? false;
      const paths = claimed ? basePaths : [target.path, ...basePaths];
      const { workspace, rows } = await lookUp(app.sql, target.workspaceNo, paths);
      // A disabled workspace's files are answered like unknown ones.
      if (!workspace || workspace.disabled) throw notFound("files");
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

type LookupRow = { workspaceId: string; strictTransforms: boolean; disabled: boolean } & (
  | DeliveryFile
  | { [K in keyof DeliveryFile]: null }
);

/**
 * The workspace by its number and its files at `paths` (unique (workspace_id, path) index), in
 * one round trip: one row with null file columns when none of the paths is taken, no row when
 * the workspace does not exist.
 */
async function lookUp(
  sql: RawQuery,
  workspaceNo: string,
  paths: string[],
): Promise<{
  workspace: { id: string; strictTransforms: boolean; disabled: boolean } | undefined;
  rows: DeliveryFile[];
}> {
  const found = await sql.$queryRaw<LookupRow[]>`
    SELECT w.id::text AS "workspaceId", w.strict_transforms AS "strictTransforms",
           w.disabled_at IS NOT NULL AS disabled,
           f.id::text AS id, f.path, f.storage_key AS "storageKey", f.thumbnail_key AS "thumbnailKey",
           f.format, f.mime_type AS "mimeType", f.hash, f.is_active AS "isActive",
           f.is_delete AS "isDelete", f.is_private AS "isPrivate", f.updated_at AS "updatedAt",
           f.expires_at AS "expiresAt"
      FROM workspaces w
      LEFT JOIN files f ON f.workspace_id = w.id AND f.path = ANY(${paths}::text[])
     WHERE w.workspace_no = ${workspaceNo}`;
  const [first] = found;
  if (!first) return { workspace: undefined, rows: [] };
  const rows: DeliveryFile[] = [];
  for (const { strictTransforms: _s, disabled: _d, ...row } of found) {
    if (row.id !== null) rows.push(row as DeliveryFile);
  }
  return {
    workspace: { id: first.workspaceId, strictTransforms: first.strictTransforms, disabled: first.disabled },
    rows,
  };
}
