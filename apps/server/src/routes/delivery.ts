/**
 * Delivery host: `GET|HEAD {assetsPrefix}/{workspace_no}/{path...}` serves a stored file.
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
import { ObjectNotFoundError } from "../storage/driver.js";
import { setDeliverySecurityHeaders } from "./delivery-headers.js";

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

export type RangeResult =
  | { kind: "none" }
  | { kind: "range"; start: number; end: number }
  | { kind: "unsatisfiable" };

/**
 * Parses a `Range` header against an entity of `size` bytes. Malformed or multi-range headers are
 * ignored (`none`: serve everything); a syntactically valid single range that selects nothing is
 * `unsatisfiable`.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: "none" };
  // Each optional group owns its trailing blanks, so no two quantifiers compete for the same
  // characters (the shape `\s*(\d*)\s*` backtracks cubically on a header of blanks).
  const match = /^\s*bytes\s*=\s*(?:(\d+)\s*)?-\s*(?:(\d+)\s*)?$/i.exec(header);
  if (!match) return { kind: "none" };
  const [, startText = "", endText = ""] = match;
  if (startText === "" && endText === "") return { kind: "none" };
  if (startText === "") {
    // Suffix range: the last N bytes.
    const suffix = Number(endText);
    if (!Number.isSafeInteger(suffix)) return { kind: "none" };
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === "" ? size - 1 : Number(endText);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: "none" };
  if (endText !== "" && end < start) return { kind: "none" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "range", start, end: Math.min(end, size - 1) };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === bare);
}

/** Splits `/{workspace_no}/{path...}` (raw, percent-encoded) into decoded parts, or null. */
export function parseDeliveryPath(rawPath: string): { workspaceNo: string; path: string } | null {
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
  const [workspaceNo, ...rest] = decoded;
  if (!workspaceNo || !/^[A-Za-z0-9]{1,32}$/.test(workspaceNo)) return null;
  return { workspaceNo, path: rest.join("/") };
}

/** What delivery reads of a file row, for a stored file and for the variants of one. */
export const DELIVERY_FILE_SELECT = {
  id: true,
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
    target: { workspaceNo: string; path: string },
    sources: ReadonlyMap<string, DeliveryFile>,
  ): Promise<boolean>;
}

export const deliveryRoutes: FastifyPluginAsync<{
  assetsPrefix: string;
  fallback?: DeliveryFallback;
}> = async (app, options) => {
  const prefix = options.assetsPrefix.replace(/(?<!\/)\/+$/, "");

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const rawPath = (request.url.split("?", 1)[0] ?? "").slice(prefix.length);
    const target = parseDeliveryPath(rawPath);
    if (!target) throw notFound("files");
    const workspace = await app.db.workspace.findUnique({
      where: { workspaceNo: target.workspaceNo },
      select: { id: true },
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
    if (!file && options.fallback && (await options.fallback.serve(request, reply, target, byPath))) {
      return reply;
    }
    if (!file?.isActive || file.isDelete || file.isPrivate) throw notFound("files");
    const stat = await app.storage.stat(file.storageKey);
    if (!stat) {
      request.log.warn({ storageKey: file.storageKey }, "file row without a stored object");
      throw notFound("files");
    }

    const etag = `"${file.hash}"`;
    reply.header("etag", etag);
    reply.header("cache-control", CACHE_CONTROL);
    reply.header("accept-ranges", "bytes");
    reply.header("last-modified", file.updatedAt.toUTCString());

    if (etagMatches(request.headers["if-none-match"], etag)) {
      return reply.status(304).send();
    }

    const size = stat.size;
    const ifRangeHeader = request.headers["if-range"];
    const ifRange = Array.isArray(ifRangeHeader) ? ifRangeHeader[0] : ifRangeHeader;
    const rangeHeader = ifRange && ifRange.trim() !== etag ? undefined : request.headers.range;
    const range = parseRange(rangeHeader, size);
    reply.type(file.mimeType || "application/octet-stream");

    if (range.kind === "unsatisfiable") {
      reply.header("content-range", `bytes */${size}`);
      return reply
        .status(416)
        .type("application/json; charset=utf-8")
        .send({ error: "Range Not Satisfiable" });
    }

    const start = range.kind === "range" ? range.start : 0;
    const end = range.kind === "range" ? range.end : size - 1;
    const length = size === 0 ? 0 : end - start + 1;
    if (range.kind === "range") {
      reply.status(206);
      reply.header("content-range", `bytes ${start}-${end}/${size}`);
    }
    reply.header("content-length", String(length));
    if (request.method === "HEAD" || length === 0) return reply.send();
    try {
      const stream = await app.storage.get(
        file.storageKey,
        range.kind === "range" ? { range: { start, end } } : {},
      );
      return reply.send(stream);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw notFound("files");
      throw error;
    }
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
