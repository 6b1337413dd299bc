/**
 * Delivery-time video transforms (issue #33): `GET|HEAD {assets}/{ws}/{videoTransform}/{path}` of
 * a stored video. ./variant-delivery.ts hands a stored file that is a video (src/video/
 * is-video-file.ts) here before it reads the transform as an image one.
 *
 * Rendering takes seconds to minutes, so it is asynchronous, on the durable job queue
 * (src/video/render-video-job.ts), one output per canonical transform (`video_outputs`,
 * src/video/video-output-rows.ts):
 * - no ffmpeg on this instance -> 503 naming TROVE_FFMPEG_PATH (images are unaffected);
 * - a transform the video grammar refuses -> 400 naming the directive;
 * - an original whose first bytes are no whitelisted container -> 400: only those ever reach
 *   ffmpeg (a playlist named `clip.mp4` is served as its bytes, never transformed);
 * - a no-op transform (`r_0`) -> the original itself, as for images;
 * - no row -> 202 `{"status":"triggered"}` (this request made the row and queued the job);
 *   pending or running -> 202 `{"status":"processing"}`; both `Cache-Control: no-store` (no
 *   cache keeps a status in place of the media) and `Retry-After`;
 * - ready -> 200 with the output from storage (./stored-object-sender.ts: Range, ETag,
 *   If-None-Match, the file's Cache-Control); the object missing -> pending again, re-queued;
 * - failed -> 422 with the failure's code.
 * Use is recorded at most once a minute per output and process, like VariantStore's.
 */
import { createHash } from "node:crypto";
import {
  canonicalVideoTransform,
  parseVideoTransform,
  streamingStepHeights,
  TransformParseError,
} from "@trove/schema";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../errors/http-error.js";
import { sniffVideoContainer, VIDEO_SNIFF_BYTES } from "../media/video/sniff-video-container.js";
import { streamFileMimeType } from "../media/video/stream-package.js";
import type { ObjectStat } from "../storage/driver.js";
import { readObjectHead } from "../storage/object-keys.js";
import { isStreamEntry, type StreamRequest } from "../video/stream-path.js";
import { streamPackageFileKey, videoOutputKey } from "../video/video-output-key.js";
import {
  findVideoOutput,
  requeueVideoOutput,
  touchVideoOutput,
  triggerVideoOutput,
  type VideoOutputRow,
} from "../video/video-output-rows.js";
import { videoToolsFor } from "../video/video-tools.js";
import type { DeliveryDeps } from "./delivery-deps.js";
import type { DeliveryFile } from "./delivery-file.js";
import { signDashManifest, signHlsPlaylist } from "./signed-playlist.js";
import { sendStoredObject } from "./stored-object-sender.js";

/** Seconds a client is told to wait before asking again for an output being rendered. */
export const VIDEO_RETRY_AFTER_SECONDS = 2;
/** How stale a recorded use may be. */
const USE_RESOLUTION_MS = 60_000;
/** Outputs whose last recorded use this process remembers; the memory is dropped beyond it. */
const REMEMBERED_USES = 10_000;

/** What a failed render's code tells the client (the row keeps the code, never ffmpeg's output). */
const FAILURES: Record<string, string> = {
  UNSUPPORTED_VIDEO: "the video's streams are not ones Trove can transform",
  VIDEO_TOO_LARGE: "the video's frame (or file) is larger than this server transforms",
  VIDEO_TOO_LONG: "the video is longer than this server transforms",
  VIDEO_TIMEOUT: "rendering took longer than this server allows",
  VIDEO_OUTPUT_TOO_LARGE: "the output would be larger than this server stores",
  VIDEO_FAILED: "rendering failed (for example, a start offset past the video's end)",
};

export interface VideoServeOptions {
  /** Cache-Control of a ready output (the file's). */
  cacheControl: string;
}

export interface StreamServeOptions extends VideoServeOptions {
  /** The request's `exp`/`sig` query when it was signed: carried onto the manifests' URIs. */
  signatureQuery?: string;
}

export interface VideoDelivery {
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    file: DeliveryFile,
    transform: string,
    options: VideoServeOptions,
  ): Promise<FastifyReply>;
  /**
   * A file of the streaming package of `stream.step` (src/video/stream-path.ts): the master
   * playlist and the DASH manifest go through the lifecycle above (202 until the package is
   * ready); the media playlists and segments of a package not ready are 404 and start nothing.
   */
  serveStream(
    request: FastifyRequest,
    reply: FastifyReply,
    file: DeliveryFile,
    stream: StreamRequest,
    options: StreamServeOptions,
  ): Promise<FastifyReply>;
}

export function videoDelivery(
  app: Pick<DeliveryDeps, "db" | "storage" | "config" | "wakeJobs">,
): VideoDelivery {
  const recordedUses = new Map<string, number>();

  const recordUse = (request: FastifyRequest, cacheKey: string) => {
    const now = Date.now();
    if ((recordedUses.get(cacheKey) ?? 0) > now - USE_RESOLUTION_MS) return;
    if (recordedUses.size >= REMEMBERED_USES) recordedUses.clear();
    recordedUses.set(cacheKey, now);
    touchVideoOutput(app.db, cacheKey).catch((error: unknown) =>
      request.log.debug({ err: error, cacheKey }, "video output use not recorded"),
    );
  };

  const status = (request: FastifyRequest, reply: FastifyReply, state: string, transformation: string) => {
    reply
      .status(202)
      .header("cache-control", "no-store")
      .header("retry-after", String(VIDEO_RETRY_AFTER_SECONDS))
      .type("application/json; charset=utf-8");
    const body = { status: state, transformation };
    return request.method === "HEAD" ? reply.send() : reply.send(body);
  };

  return {
    async serve(request, reply, file, transform, options) {
      const located = await videoToolsFor(app.config.video);
      if (!located.tools) throw new HttpError(503, located.reason, { expose: true });
      let canonical: string;
      try {
        canonical = canonicalVideoTransform(parseVideoTransform(transform));
      } catch (error) {
        if (error instanceof TransformParseError) {
          throw new HttpError(400, error.message, { errorCode: "INVALID_TRANSFORM", cause: error });
        }
        throw error;
      }
      // The original's bytes decide whether it is a video ffmpeg may read; checked before its
      // first output is queued (an output row exists only for a file that passed), not on every hit.
      const assertTransformable = async () => {
        const head = await readObjectHead(app.storage, file.storageKey, VIDEO_SNIFF_BYTES);
        if (!sniffVideoContainer(head)) {
          throw new HttpError(400, `This file is not a video Trove can transform (${file.mimeType})`);
        }
      };
      const stored = { updatedAt: file.updatedAt, cacheControl: options.cacheControl };
      if (canonical === "") {
        // A transform that does nothing: the stored file itself.
        await assertTransformable();
        const stat = await app.storage.stat(file.storageKey);
        if (!stat) throw new HttpError(404, "File not found");
        return sendStoredObject(app.storage, request, reply, {
          ...stored,
          storageKey: file.storageKey,
          size: stat.size,
          hash: file.hash,
          mimeType: file.mimeType,
        });
      }

      const cacheKey = videoOutputKey(file.storageKey, canonical);
      const ready = await lifecycle(request, reply, file, canonical, cacheKey, cacheKey, assertTransformable);
      if (!ready) return reply;
      recordUse(request, cacheKey);
      return sendStoredObject(app.storage, request, reply, {
        ...stored,
        updatedAt: ready.row.updatedAt,
        storageKey: cacheKey,
        size: ready.stat.size,
        // The ETag: the original's content and the transform, as for image variants.
        hash: outputHash(file, canonical),
        mimeType: ready.row.mimeType ?? "application/octet-stream",
      });
    },

    async serveStream(request, reply, file, stream, options) {
      const located = await videoToolsFor(app.config.video);
      if (!located.tools) throw new HttpError(503, located.reason, { expose: true });
      let heights: number[];
      try {
        heights = streamingStepHeights(stream.step) ?? [];
      } catch (error) {
        if (error instanceof TransformParseError) {
          throw new HttpError(400, error.message, { errorCode: "INVALID_TRANSFORM", cause: error });
        }
        throw error;
      }
      // `processing` and `st_240_360_480_720_1080` are one package.
      const canonical = `st_${heights.join("_")}`;
      const packageKey = videoOutputKey(file.storageKey, canonical);
      const fileKey = streamPackageFileKey(packageKey, stream.file);
      if (!isStreamEntry(stream)) {
        // A part of the package: served only once the package is ready, never a trigger.
        const row = await findVideoOutput(app.db, packageKey);
        const stat = row?.status === "ready" ? await app.storage.stat(fileKey) : null;
        if (!row || !stat) throw new HttpError(404, "Not found: the stream is not ready");
        return sendStreamFile(request, reply, file, stream, fileKey, stat.size, row.updatedAt, options);
      }
      const assertTransformable = async () => {
        const head = await readObjectHead(app.storage, file.storageKey, VIDEO_SNIFF_BYTES);
        if (!sniffVideoContainer(head)) {
          throw new HttpError(400, `This file is not a video Trove can stream (${file.mimeType})`);
        }
      };
      const ready = await lifecycle(
        request,
        reply,
        file,
        canonical,
        packageKey,
        fileKey,
        assertTransformable,
      );
      if (!ready) return reply;
      recordUse(request, packageKey);
      return sendStreamFile(
        request,
        reply,
        file,
        stream,
        fileKey,
        ready.stat.size,
        ready.row.updatedAt,
        options,
      );
    },
  };

  /**
   * The output's state: the ready row and the stat of `readyKey` (its object, or a package's
   * manifest), or null once a 202 (triggered, processing) has been sent; failed throws the 422. A
   * ready row whose object is gone is queued again.
   */
  async function lifecycle(
    request: FastifyRequest,
    reply: FastifyReply,
    file: DeliveryFile,
    canonical: string,
    cacheKey: string,
    readyKey: string,
    assertTransformable: () => Promise<void>,
  ): Promise<{ row: VideoOutputRow; stat: ObjectStat } | null> {
    const row = await findVideoOutput(app.db, cacheKey);
    if (!row) {
      await assertTransformable();
      const made = await triggerVideoOutput(app.db, { cacheKey, fileId: file.id, transform: canonical });
      // Rendered here at once if this instance runs workers, not after its next poll.
      if (made) app.wakeJobs?.();
      status(request, reply, made ? "triggered" : "processing", canonical);
      return null;
    }
    if (row.status === "failed") {
      const code = row.errorCode ?? "VIDEO_FAILED";
      throw new HttpError(422, `${code}: ${FAILURES[code] ?? FAILURES.VIDEO_FAILED}`);
    }
    if (row.status !== "ready") {
      status(request, reply, "processing", canonical);
      return null;
    }
    const stat = await app.storage.stat(readyKey);
    if (!stat) {
      const requeued = await requeueVideoOutput(app.db, cacheKey);
      if (requeued) app.wakeJobs?.();
      status(request, reply, requeued ? "triggered" : "processing", canonical);
      return null;
    }
    return { row, stat };
  }

  /**
   * A package file: segments from storage with Range; a manifest of a signed request read and
   * served with the signature on each URI it names (./signed-playlist.ts), unsigned ones as stored.
   */
  async function sendStreamFile(
    request: FastifyRequest,
    reply: FastifyReply,
    file: DeliveryFile,
    stream: StreamRequest,
    key: string,
    size: number,
    updatedAt: Date,
    options: StreamServeOptions,
  ): Promise<FastifyReply> {
    const mimeType = streamFileMimeType(stream.file);
    const manifest = stream.file.endsWith(".m3u8") || stream.file.endsWith(".mpd");
    if (!manifest || options.signatureQuery === undefined) {
      return sendStoredObject(app.storage, request, reply, {
        updatedAt,
        cacheControl: options.cacheControl,
        storageKey: key,
        size,
        hash: outputHash(file, `${stream.step}/${stream.file}`),
        mimeType,
      });
    }
    const stored = await streamToString(await app.storage.get(key));
    const body = stream.file.endsWith(".mpd")
      ? signDashManifest(stored, options.signatureQuery)
      : signHlsPlaylist(stored, options.signatureQuery);
    reply
      .header("cache-control", options.cacheControl)
      .header("content-length", String(Buffer.byteLength(body)))
      .type(mimeType);
    return request.method === "HEAD" ? reply.send() : reply.send(body);
  }
}

/** The ETag of an output: the original's content and what was made of it, as for image variants. */
function outputHash(file: DeliveryFile, made: string): string {
  return `${file.hash.slice(0, 32)}-${createHash("sha256").update(made).digest("hex").slice(0, 16)}`;
}

async function streamToString(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
