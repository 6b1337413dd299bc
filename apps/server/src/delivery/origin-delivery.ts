/**
 * Delivery from sources: `GET|HEAD {assets}/{workspace_no}-{source name}/{transform?}/{path...}`
 * serves the object `{path}` of the source's origin, or a transformed variant of it.
 *
 * - The source is looked up by workspace and name on every request (src/sources/
 *   find-delivery-source.ts: no cache), so a deactivated, deleted, renamed or reconfigured source
 *   takes effect on the next request on every instance. Unknown or inactive: 404
 *   `{ error: "Source not found" }`.
 * - A former name of a renamed source answers 301 to the same URL under the current name (rest of
 *   the path and query as sent), so one image keeps one canonical URL: CDN caches and search
 *   engines converge on it, and old links in customers' pages keep working. 301 rather than 308:
 *   only GET and HEAD come here, and every image client and crawler knows 301. The redirect is
 *   cached for the origin TTL only, not forever, so a rename undone (or a freed name taken by
 *   another source) is seen by browsers and CDNs within that time.
 * - Leading segments that are valid transformation steps are the transform, as for stored files;
 *   an origin object whose first path segment reads as a step is not reachable (its own name
 *   would be read as a transform).
 * - Originals come through the OriginCache (src/sources/origins/origin-cache.ts) and are answered like
 *   stored files (ETag of the content hash, Range, conditional requests, sniffed Content-Type),
 *   with `Cache-Control: public, max-age=<cache TTL>` instead of a year: an origin's object may
 *   change under the same path. Variants are rendered, cached and capped per origin object
 *   exactly like stored files' (./variant-delivery.ts).
 * - Origin failures answer with the origin error's status (404, 413, 502, 504) and a message that
 *   names the source and the cause.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerConfig } from "../config.js";
import { HttpError } from "../errors/http-error.js";
import { notFound } from "../errors/index.js";
import { findDeliverySource } from "../sources/find-delivery-source.js";
import { OriginReaders } from "../sources/origins/create-origin-reader.js";
import { OriginCache, type OriginObjectRow } from "../sources/origins/origin-cache.js";
import { OriginError } from "../sources/origins/origin-error.js";
import type { DeliveryDeps } from "./delivery-deps.js";
import type { DeliveryFile } from "./delivery-file.js";
import { sendStoredObject } from "./stored-object-sender.js";
import { splitTransform } from "./transform-path.js";
import type { VariantDelivery } from "./variant-delivery.js";

export interface OriginTarget {
  workspaceNo: string;
  /** The source's name. */
  origin: string;
  /** Everything after `{workspace_no}-{origin}/`, decoded: `[transform/]path`. */
  path: string;
}

export interface OriginDelivery {
  serve(request: FastifyRequest, reply: FastifyReply, target: OriginTarget): Promise<FastifyReply>;
  close(): void;
}

function asDeliveryFile(row: OriginObjectRow, workspaceId: string): DeliveryFile {
  return {
    id: row.id,
    workspaceId,
    path: row.path,
    storageKey: row.storageKey,
    thumbnailKey: null,
    format: row.format,
    mimeType: row.mimeType,
    hash: row.hash,
    isActive: true,
    isDelete: false,
    isPrivate: false,
    updatedAt: row.originLastModified ?? row.checkedAt,
  };
}

/**
 * The URL of the same request under the source's current name: the assets URL, the new origin,
 * then the rest of the path and the query exactly as sent (transform and encoding untouched).
 */
function renamedLocation(
  config: Pick<ServerConfig, "assetsUrl" | "assetsPrefix">,
  url: string,
  workspaceNo: string,
  name: string,
): string {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  const rest = path.slice(config.assetsPrefix.length).replace(/^\/+[^/]*/, "");
  return `${config.assetsUrl}/${workspaceNo}-${name}${rest}${query === -1 ? "" : url.slice(query)}`;
}

export function originDelivery(
  app: Pick<DeliveryDeps, "db" | "sql" | "storage" | "config" | "log">,
  variants: VariantDelivery,
): OriginDelivery {
  const settings = app.config.origins;
  const readers = new OriginReaders({
    secretKey: app.config.secretKey,
    trustedRanges: app.config.trustedRanges,
    gcsApiEndpoint: settings.gcsApiEndpoint,
    ...(app.config.outbound ? { doubles: app.config.outbound } : {}),
  });
  const cache = new OriginCache(app.db, app.sql, app.storage, settings, app.log);
  const cacheControl = `public, max-age=${Math.floor(settings.ttlMs / 1000)}`;

  return {
    close: () => readers.close(),
    async serve(request, reply, target) {
      const found = await findDeliverySource(app, target.workspaceNo, target.origin);
      if (found.kind === "renamed") {
        const location = renamedLocation(app.config, request.url, target.workspaceNo, found.name);
        return reply.code(301).header("location", location).header("cache-control", cacheControl).send();
      }
      if (found.kind === "none") throw notFound("sources");
      const { source } = found;
      const { transform, path } = splitTransform(target.path);
      const row = { ...source, version: source.updatedAt ?? source.createdAt };
      const reader = readers.readerOf(row);
      let object: OriginObjectRow;
      try {
        object = await cache.original({
          source: row,
          reader,
          host: reader.scope?.(request.headers) ?? "",
          path,
          requestHeaders: request.headers,
        });
      } catch (error) {
        if (!(error instanceof OriginError)) throw error;
        if (error.kind === "not_found") throw notFound("files");
        request.log.warn(
          { source: source.name, kind: error.kind, detail: error.detail },
          "origin read failed",
        );
        throw new HttpError(error.status, error.message, { expose: true, cause: error });
      }
      if (transform !== "") {
        return variants.serve(request, reply, asDeliveryFile(object, source.workspaceId), transform, {
          owner: { originObjectId: object.id },
          workspaceId: source.workspaceId,
          // Sources have no private objects, so no signed URLs: strict mode applies as written.
          signed: false,
          strict: found.strictTransforms,
          cacheControl,
        });
      }
      return sendStoredObject(app.storage, request, reply, {
        storageKey: object.storageKey,
        size: Number(object.size),
        hash: object.hash,
        mimeType: object.mimeType,
        updatedAt: object.originLastModified ?? object.checkedAt,
        cacheControl,
      });
    },
  };
}
