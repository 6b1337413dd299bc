/**
 * Delivery host: `GET|HEAD {assetsPrefix}/{workspace_no}/{path...}` serves a stored file;
 * `{assetsPrefix}/{workspace_no}-{source name}/{path...}` is a source's object, served by the
 * `origins` option (src/routes/origin-delivery.ts).
 *
 * - Found by workspace_no + the file's `path` (`photos/2024/cat.jpg`); only active, non-deleted,
 *   non-private files. Anything else is 404 `{ error: "File not found" }`.
 * - Content-Type, Content-Length, Accept-Ranges, ETag (the content hash), `Cache-Control: public,
 *   max-age=31536000, immutable`; If-None-Match -> 304; one `Range: bytes=` range -> 206 (or 416
 *   when unsatisfiable; several ranges are answered with the whole file, as RFC 9110 allows);
 *   If-Range honoured.
 * - Streams from the storage driver; never buffers the file.
 * - Security headers (nosniff, a sandboxing CSP) on every response, errors included:
 *   src/routes/delivery-headers.ts.
 * - Option `fallback`: answers when no file has the requested path (app.ts passes the delivery-time
 *   transforms of src/routes/delivery-variants.ts, `{workspace_no}/{transform}/{path}`). The
 *   files it may answer from (`sourcePaths`) are looked up in the same query as the path itself,
 *   so a variant costs one file lookup, like a stored file.
 *
 * `deliveryUrl(assetsUrl, workspaceNo, path)` builds the public URL for a file's `url` field; the
 * app also exposes it as `app.deliveryUrl(workspaceNo, path)`.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../errors/index.js";
import { deliveryAccess } from "./delivery-access.js";
import { setDeliverySecurityHeaders } from "./delivery-headers.js";
import type { OriginDelivery } from "./origin-delivery.js";
import { sendStoredObject } from "./send-stored-object.js";

declare module "fastify" {
  interface FastifyInstance {
    /** `${assetsUrl}/${workspace_no}/${path}` with each segment percent-encoded. */
    deliveryUrl(workspaceNo: string, path: string): string;
  }
}

export function encodePath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/** The delivery URL of a file: `${assetsUrl}/${workspace_no}/${path}`. */
export function deliveryUrl(assetsUrl: string, workspaceNo: string, path: string): string {
  return `${assetsUrl.replace(/(?<!\/)\/+$/, "")}/${encodeURIComponent(workspaceNo)}/${encodePath(path.replace(/^\/+/, ""))}`;
}

export const CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * Splits `/{workspace_no}/{path...}` (raw, percent-encoded) into decoded parts, or null. A first
 * segment `{workspace_no}-{source name}` names a source (`origin`); workspace numbers hold no
 * hyphen, so the first hyphen is the separator.
 */
export function parseDeliveryPath(
  rawPath: string,
): { workspaceNo: string; origin?: string; path: string } | null {
  const segments = rawPath.replace(/^\/+/, "").split("/");
  if (segments.length < 2) return null;
  let decoded: string[];
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
  if (decoded.some((s) => s === "" || s === "." || s === ".." || s.includes("/") || s.includes("\0")))
    return null;
  const [first = "", ...rest] = decoded;
  const hyphen = first.indexOf("-");
  const workspaceNo = hyphen === -1 ? first : first.slice(0, hyphen);
  if (!/^[A-Za-z0-9]{1,32}$/.test(workspaceNo)) return null;
  if (hyphen === -1) return { workspaceNo, path: rest.join("/") };
  const origin = first.slice(hyphen + 1);
  if (!/^[A-Za-z0-9_-]{1,255}$/.test(origin)) return null;
  return { workspaceNo, origin, path: rest.join("/") };
}

/** What delivery reads of a file row, for a stored file and for the variants of one. */
export const DELIVERY_FILE_SELECT = {
  id: true,
  workspaceId: true,
  path: true,
  storageKey: true,
  thumbnailKey: true,
  format: true,
  mimeType: true,
  hash: true,
  isActive: true,
  isDelete: true,
  isPrivate: true,
  updatedAt: true,
} as const;

export interface DeliveryFile {
  id: string;
  workspaceId: string;
  path: string;
  storageKey: string;
  thumbnailKey: string | null;
  format: string;
  mimeType: string;
  hash: string;
  isActive: boolean;
  isDelete: boolean;
  isPrivate: boolean;
  updatedAt: Date;
}

/**
 * Answers requests for paths that name no file (the delivery-time transforms of
 * src/routes/delivery-variants.ts).
 */
export interface DeliveryFallback {
  /** Paths of the files that may answer a request for `path`, best first; [] when none can. */
  sourcePaths(path: string): string[];
  /**
   * Whether `path` is the fallback's alone: a file stored at that very path (one named before
   * such names were refused) must not answer it.
   */
  claims(path: string): boolean;
  /**
   * Called when no file has the requested path, with the rows found at `sourcePaths(path)`
   * (by path); resolves true when it answered the request, false for a 404.
   */
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    target: { workspaceNo: string; path: string; strictTransforms: boolean },
    sources: ReadonlyMap<string, DeliveryFile>,
  ): Promise<boolean>;
}

export const deliveryRoutes: FastifyPluginAsync<{
  assetsPrefix: string;
  fallback?: DeliveryFallback;
  /** Serves `{workspace_no}-{source}/...` paths (src/routes/origin-delivery.ts). */
  origins?: OriginDelivery;
}> = async (app, options) => {
  const prefix = options.assetsPrefix.replace(/(?<!\/)\/+$/, "");

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const rawPath = (request.url.split("?", 1)[0] ?? "").slice(prefix.length);
    const target = parseDeliveryPath(rawPath);
    if (!target) throw notFound("files");
    if (target.origin !== undefined) {
      if (!options.origins) throw notFound("files");
      return options.origins.serve(request, reply, { ...target, origin: target.origin });
    }
    const workspace = await app.db.workspace.findUnique({
      where: { workspaceNo: target.workspaceNo },
      select: { id: true, strictTransforms: true },
    });
    if (!workspace) throw notFound("files");
    const sourcePaths = options.fallback?.sourcePaths(target.path) ?? [];
    const claimed = options.fallback?.claims(target.path) ?? false;
    const paths = claimed ? sourcePaths : [target.path, ...sourcePaths];
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
      options.fallback &&
      (await options.fallback.serve(
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
      CACHE_CONTROL,
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
  };

  app.addHook("onSend", async (_request, reply, payload) => {
    setDeliverySecurityHeaders(reply);
    return payload;
  });

  const routeOptions = { config: { auth: "none" as const, errorGroup: "files" as const } };
  for (const url of [prefix, `${prefix}/*`]) {
    app.get(url, { ...routeOptions, exposeHeadRoute: false }, handler);
    app.head(url, routeOptions, handler);
  }
};
