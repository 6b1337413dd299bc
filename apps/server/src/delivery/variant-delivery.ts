/**
 * Delivery-time transformations: `GET|HEAD {assets}/{workspace_no}/{transform}/{path...}`.
 *
 * Wired into ./file-delivery.ts as its `fallback`: delivery looks the whole path up as a file
 * (in the same query as the files this may be a variant of, `basePaths`) and calls this when
 * no file has that path, or at once when the path `claims`: its first segment is a valid
 * transformation step (`isTransformStep`). Folder and file names that read as a step are refused
 * when they are created (src/files/clean-name.ts), so a stored path can never stand in for
 * another file's variant; a row stored under such a path before the rule is not served at it.
 *
 * - Which leading segments are the transform: ./transform-path.ts (`w_300/e_grayscale/cat.jpg`).
 *   The longest such prefix naming an existing file wins, then shorter ones. A path whose
 *   leading segments read as a transform but that names no file is a 404.
 * - The transform is validated and canonicalised (`@trove/schema`): invalid -> 400 whose
 *   message names the directive; `""` (a no-op such as `r_0`) serves the stored image itself.
 * - Raster images only (RASTER_FORMATS, HEIC included). Any other file with a transform, a
 *   no-op one included, is a 400: an SVG or text file has one URL, its plain one. A stored video
 *   (src/video/is-video-file.ts) goes to ./video-delivery.ts before its transform is read.
 * - Image layers (`l_image:{path}`) name public files of the same workspace only; their content
 *   hashes join the cache key and ETag (./layer-source.ts).
 * - Rendered variants are cached in storage under `variantCacheKey(storageKey, canonical,
 *   autoFormat)` and served from there afterwards (`X-Cache: HIT`/`MISS`); concurrent requests
 *   for one uncached variant render it once (./variant-renderer.ts). A hit is opened once: its
 *   Content-Type follows from the canonical transform and the stored file's format
 *   (variantOutputFormat), and is sniffed from the cached bytes only where the image's alpha decides it (TIFF without `f`, `f_auto` for a
 *   client without AVIF/WebP). The thumbnail transform (`THUMBNAIL_TRANSFORM`, the `thumbnail`
 *   URL of uploads) is such a variant; its cache key is the file's `thumbnailKey`.
 * - Headers: Content-Type of the variant, Content-Length, ETag (file hash + variant digest),
 *   `Cache-Control` as for files, `Vary: Accept` for every f_auto response (hit, miss or 304),
 *   and for `w_auto` `Vary` on the headers that chose the width plus `Accept-CH` (./auto-width.ts;
 *   the width is written into the transform before the cache key, so one entry per width step),
 *   and the delivery host's security headers. If-None-Match -> 304 without reading storage. No
 *   Range support on variants.
 * - Limits (./delivery-limits.ts): renders pass the app's RenderGate (at most N at
 *   once, a short queue, then 503 with Retry-After; src/delivery/render-gate.ts), and each file keeps at
 *   most N stored variants, least recently used evicted first (VariantStore); once a file is
 *   at its cap, a new variant is kept only at its second request. A fresh render is answered once
 *   its variant is written; the variant's row and the eviction run after the response
 *   (`settled()` waits for them).
 * - Variants of a deleted file are never served: delivery finds no row. Their bytes are removed
 *   with the file by `deleteFileObjects` (src/uploads/delete-file-objects.ts).
 */
import { createHash } from "node:crypto";
import { canonicalizeTransform, TransformParseError } from "@trove/schema";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../errors/http-error.js";
import { notFound } from "../errors/index.js";
import { isMediaError } from "../media/media-error.js";
import { resolveMediaLimits } from "../media/media-limits.js";
import { negotiateAutoFormat } from "../media/negotiate-format.js";
import { FORMAT_MIME_TYPES, isRasterFormat, RASTER_FORMATS } from "../media/raster-format.js";
import { SNIFF_HEAD_BYTES, sniffContent } from "../media/sniff-content.js";
import { negotiatesFormat, variantCacheKey, variantIdentity } from "../media/variant-cache-key.js";
import { variantOutputFormat } from "../media/variant-output-format.js";
import { ObjectNotFoundError, type ObjectStat, type OpenedObject } from "../storage/driver.js";
import { readObjectHead } from "../storage/object-keys.js";
import { openObject } from "../storage/open-object.js";
import { resolveTransform } from "../transforms/resolve-transform.js";
import { isVideoFile } from "../video/is-video-file.js";
import { parseStreamPath } from "../video/stream-path.js";
import { deliveryAccess } from "./access-check.js";
import { AUTO_WIDTH_CLIENT_HINTS, resolveAutoWidth } from "./auto-width.js";
import type { DeliveryDeps } from "./delivery-deps.js";
import { type DeliveryFile, PUBLIC_CACHE_CONTROL } from "./delivery-file.js";
import { etagMatches } from "./etag-match.js";
import type { DeliveryFallback } from "./file-delivery.js";
import { resolveLayerSources } from "./layer-source.js";
import { signatureQuery } from "./signed-playlist.js";
import { basePaths, startsWithTransformStep } from "./transform-path.js";
import { type RenderedVariant, VariantRenderer } from "./variant-renderer.js";
import { type VariantOwner, VariantStore } from "./variant-store.js";
import type { VideoDelivery } from "./video-delivery.js";

/**
 * The transform a signature covers: canonical, so that equal transforms written differently share
 * a signature. An invalid one stays as written (no signature matches it; `serve` answers 400).
 */
function canonicalOrAsWritten(transform: string): string {
  try {
    return canonicalizeTransform(transform);
  } catch {
    return transform;
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export interface VariantServeOptions {
  /** Whose variants these are (VariantStore's cap and eviction). */
  owner: VariantOwner;
  /** The workspace whose named transforms and strict mode apply. */
  workspaceId: string;
  /** The request carried a valid signature (strict mode renders any transform for it). */
  signed: boolean;
  /** The workspace's strict mode, when already read with the workspace (saves a query). */
  strict?: boolean;
  /** Cache-Control of every response. */
  cacheControl: string;
}

export interface VariantDelivery {
  /** The delivery fallback that serves transformed variants of stored files. */
  fallback: DeliveryFallback;
  /** Serves `transform` of an object in storage (a stored file, or an origin object's copy). */
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    file: DeliveryFile,
    transform: string,
    options: VariantServeOptions,
  ): Promise<FastifyReply>;
  /**
   * Resolves when the bookkeeping of the variants rendered so far (rows, evictions; run after
   * their responses) has finished: for tests and anything reading those rows right after.
   */
  settled(): Promise<void>;
  /** Drops deferred evictions (app close). */
  close(): void;
}

/** Transformed variants: the delivery fallback for stored files, and `serve` for origin objects. */
export function variantDelivery(app: DeliveryDeps, videos?: VideoDelivery): VariantDelivery {
  const variants = new VariantStore(app.sql, app.storage, app.config.delivery.maxVariantsPerFile, app.log);
  const limits = resolveMediaLimits(app.config.mediaLimits);
  const renderer = new VariantRenderer({
    storage: app.storage,
    gate: app.renderGate,
    limits,
    variants,
    log: app.log,
    metrics: app.metrics,
  });

  const sendBuffer = (request: FastifyRequest, reply: FastifyReply, body: Buffer, mimeType: string) => {
    reply.type(mimeType).header("content-length", String(body.length));
    return request.method === "HEAD" ? reply.send() : reply.send(body);
  };

  /**
   * Answers with the object at `key`, as `stat` or `openObject` found it: an opened body is sent
   * as it is, a stat's object read now; a HEAD or an empty object sends no body.
   */
  const sendObject = async (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    found: ObjectStat | OpenedObject,
    mimeType: string,
  ) => {
    reply.type(mimeType).header("content-length", String(found.size));
    const opened = "body" in found ? found.body : undefined;
    if (request.method === "HEAD" || found.size === 0) {
      opened?.destroy();
      return reply.send();
    }
    return reply.send(opened ?? (await app.storage.get(key)));
  };

  const serve = async (
    request: FastifyRequest,
    reply: FastifyReply,
    file: DeliveryFile,
    transform: string,
    options: VariantServeOptions,
  ) => {
    const { owner } = options;
    // A stored video's transform is the video grammar's, rendered asynchronously (./video-delivery.ts).
    if (videos && "fileId" in owner && isVideoFile(file)) {
      return videos.serve(request, reply, file, transform, { cacheControl: options.cacheControl });
    }
    // Named steps (`t_card`) written out, and strict mode enforced: src/transforms/.
    // The strict flag read with the workspace saves a query per request.
    const resolved = await resolveTransform(app.db, options.workspaceId, transform, {
      signed: options.signed,
      ...(options.strict === undefined ? {} : { strict: options.strict }),
    });
    let canonical: string;
    try {
      canonical = canonicalizeTransform(resolved);
    } catch (error) {
      if (error instanceof TransformParseError) {
        throw new HttpError(400, error.message, { errorCode: "INVALID_TRANSFORM", cause: error });
      }
      throw error;
    }

    if (!isRasterFormat(file.format)) {
      throw new HttpError(
        400,
        `Transformations apply to raster images only (${RASTER_FORMATS.join(", ")}); this file is ${file.mimeType}`,
      );
    }

    reply.header("cache-control", options.cacheControl);
    reply.header("last-modified", file.updatedAt.toUTCString());

    if (canonical === "") {
      // A transformation that does nothing: the stored file itself.
      const stat = await app.storage.stat(file.storageKey);
      if (!stat) throw notFound("files");
      const etag = `"${file.hash}"`;
      reply.header("etag", etag);
      if (etagMatches(request.headers["if-none-match"], etag)) return reply.status(304).send();
      return sendObject(request, reply, file.storageKey, stat, file.mimeType || "application/octet-stream");
    }

    // w_auto: the width this request asks for, written out (./auto-width.ts); Vary names the
    // headers that chose it, and Accept-CH asks the browser for its hints next time.
    const autoWidth = resolveAutoWidth(canonical, request.headers);
    if (autoWidth) {
      canonical = autoWidth.canonical;
      reply.header("accept-ch", AUTO_WIDTH_CLIENT_HINTS.join(", "));
    }
    const accept = request.headers.accept;
    const negotiated = negotiatesFormat(canonical);
    const autoFormat = negotiateAutoFormat(accept);
    // Image layers' files are part of the variant: found (and refused) before the cache is read.
    const layers = await resolveLayerSources(app, options.workspaceId, canonical, limits.maxInputBytes);
    const cacheKey = variantCacheKey(file.storageKey, canonical, autoFormat, layers?.versions);
    const identity = variantIdentity(canonical, autoFormat, layers?.versions);
    const etag = `"${file.hash.slice(0, 32)}-${digest(identity).slice(0, 16)}"`;
    const vary = [...(negotiated ? ["Accept"] : []), ...(autoWidth?.auto.vary ?? [])];
    if (vary.length > 0) reply.header("vary", vary.join(", "));
    reply.header("etag", etag);
    if (etagMatches(request.headers["if-none-match"], etag)) return reply.status(304).send();

    // A GET finds and opens the cached object in one call (the body is then held, so an eviction
    // cannot take it from under the response); a HEAD only asks its size.
    const cached =
      request.method === "HEAD" ? await app.storage.stat(cacheKey) : await openObject(app.storage, cacheKey);
    const body = cached && "body" in cached ? cached.body : undefined;
    if (cached && cached.size > 0) {
      try {
        const format = variantOutputFormat(file.format, canonical, autoFormat);
        const mimeType = format
          ? FORMAT_MIME_TYPES[format]
          : (await sniffContent(await readObjectHead(app.storage, cacheKey, SNIFF_HEAD_BYTES))).mimeType;
        reply.header("x-cache", "HIT");
        if (cacheKey !== file.thumbnailKey) variants.used(owner, cacheKey);
        return sendObject(request, reply, cacheKey, cached, mimeType);
      } catch (error) {
        body?.destroy();
        // Removed before its head was read: render it again.
        if (!(error instanceof ObjectNotFoundError)) throw error;
      }
    }
    body?.destroy(); // an empty object is rendered again

    let rendered: RenderedVariant;
    try {
      rendered = await renderer.render({
        file,
        owner,
        canonical,
        accept,
        cacheKey,
        ...(layers ? { layerSources: layers.sources } : {}),
      });
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw notFound("files");
      if (isMediaError(error))
        throw new HttpError(error.status, error.message, { errorCode: error.code, cause: error });
      throw error;
    }
    reply.header("x-cache", "MISS");
    return sendBuffer(request, reply, rendered.body, rendered.mimeType);
  };

  /** The stored video a streaming URL names (src/video/stream-path.ts), with the other candidates. */
  const candidatePaths = (path: string) => {
    const stream = videos ? parseStreamPath(path) : null;
    return stream ? [...basePaths(path), stream.filePath] : basePaths(path);
  };

  const fallback: DeliveryFallback = {
    basePaths: candidatePaths,
    claims: startsWithTransformStep,
    serve: async (request, reply, target, bases) => {
      for (const path of basePaths(target.path)) {
        const file = bases.get(path);
        if (!file) continue;
        const transform = target.path.slice(0, -path.length - 1);
        const access = deliveryAccess(
          app,
          request,
          { workspaceNo: target.workspaceNo, transform: canonicalOrAsWritten(transform) },
          file,
          PUBLIC_CACHE_CONTROL,
        );
        if (!access) return false;
        await serve(request, reply, file, transform, {
          owner: { fileId: file.id },
          workspaceId: file.workspaceId,
          signed: access.signed,
          strict: target.strictTransforms,
          cacheControl: access.cacheControl,
        });
        return true;
      }
      const stream = videos ? parseStreamPath(target.path) : null;
      const file = stream ? bases.get(stream.filePath) : undefined;
      if (!stream || !file || !videos || !isVideoFile(file)) return false;
      // A signature covers the file and the ladder step: the whole package (./signed-playlist.ts).
      const access = deliveryAccess(
        app,
        request,
        { workspaceNo: target.workspaceNo, transform: stream.step },
        file,
        PUBLIC_CACHE_CONTROL,
      );
      if (!access) return false;
      await videos.serveStream(request, reply, file, stream, {
        cacheControl: access.cacheControl,
        ...(access.signed ? { signatureQuery: signatureQuery(request.query as object) } : {}),
      });
      return true;
    },
  };
  return { fallback, serve, settled: () => variants.settled(), close: () => variants.close() };
}
