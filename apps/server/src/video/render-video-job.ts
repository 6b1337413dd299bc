/**
 * The `video.render` job (issue #33): renders one video transform's output, enqueued by the first
 * request for it (./video-output-rows.ts) and run by any instance's job runner
 * (src/jobs/start-workers.ts registers it).
 *
 * 1. Claims its row (`running`); a row that is gone (file deleted) or finished is a done job.
 * 2. Runs within this instance's video pool (TROVE_VIDEO_CONCURRENCY jobs at once): the runner
 *    claims a render only while the pool has a free slot (src/jobs/start-workers.ts).
 * 3. Checks the original's first bytes are a whitelisted container, gets it as a local path,
 *    probes it (limits: duration, frame size, frame rate), transcodes it into a temp file under
 *    `<dataDir>/tmp` (limits: time, output size), puts that at the row's cache key. A streaming
 *    ladder (`st_…`) is packaged instead (src/media/video/stream-package.ts): every file of the
 *    package under the row's key (streamPackageFileKey), the size limit on all of them together.
 * 4. Marks the row `ready` with the output's type and size, then evicts the file's least recently
 *    used outputs beyond TROVE_MAX_VARIANTS_PER_FILE.
 *
 * A refusal of the input or of the render (VideoInputError, VideoRenderError, an original over
 * the media input limit) fails the row with its code and the job for good (PermanentJobError):
 * the URL answers 422. Anything else (storage, database) is retried by the runner; after the last
 * attempt the row fails with VIDEO_FAILED, so no URL stays `processing` forever. The temp
 * directory is removed whatever happens.
 */
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { parseVideoTransform, streamingStepHeights } from "@trove/schema";
import type { FastifyBaseLogger } from "fastify";
import type { ServerConfig } from "../config.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { ClaimedJob } from "../jobs/job-queue.js";
import { PermanentJobError } from "../jobs/job-runner.js";
import { resolveMediaLimits } from "../media/media-limits.js";
import { probeVideo } from "../media/video/probe-video.js";
import { sniffVideoContainer, VIDEO_SNIFF_BYTES } from "../media/video/sniff-video-container.js";
import { HLS_MASTER_FILE, packageStream, streamFileMimeType } from "../media/video/stream-package.js";
import { transcodeVideo } from "../media/video/transcode-video.js";
import { VideoInputError, VideoRenderError } from "../media/video/video-errors.js";
import { resolveVideoLimits } from "../media/video/video-limits.js";
import type { StorageDriver } from "../storage/driver.js";
import { readObjectHead } from "../storage/object-keys.js";
import { localVideoInput, VideoInputTooLargeError } from "./local-video-input.js";
import { streamPackageFileKey } from "./video-output-key.js";
import {
  deleteVideoOutputObjects,
  evictVideoOutputs,
  failVideoOutput,
  finishVideoOutput,
  startVideoOutput,
  type VideoRenderPayload,
} from "./video-output-rows.js";
import { videoToolsFor } from "./video-tools.js";

export interface RenderVideoDeps {
  db: PrismaClient;
  storage: StorageDriver;
  config: Pick<ServerConfig, "video" | "mediaLimits" | "dataDir" | "delivery">;
  log: FastifyBaseLogger;
}

/** A refusal that retrying cannot change, with the code the row keeps. */
class RenderRefused extends PermanentJobError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

export function createRenderVideoHandler(deps: RenderVideoDeps) {
  const { db, storage, config, log } = deps;
  const limits = resolveVideoLimits(config.video);
  const maxInputBytes = resolveMediaLimits(config.mediaLimits).maxInputBytes;
  const tmpRoot = join(config.dataDir, "tmp");

  const render = async (cacheKey: string, target: { transform: string; storageKey: string }) => {
    const { tools } = await videoToolsFor(config.video);
    // Another instance may have ffmpeg: left to the runner's retries (then VIDEO_FAILED).
    if (!tools) throw new Error("no ffmpeg on this instance (TROVE_FFMPEG_PATH)");
    const container = sniffVideoContainer(
      await readObjectHead(storage, target.storageKey, VIDEO_SNIFF_BYTES),
    );
    if (!container) throw new RenderRefused("UNSUPPORTED_VIDEO", "not a video Trove can transform");
    await mkdir(tmpRoot, { recursive: true });
    const workDir = await mkdtemp(join(tmpRoot, "video-"));
    try {
      const input = await localVideoInput(storage, target.storageKey, workDir, maxInputBytes);
      const probe = await probeVideo(tools, input, container, limits);
      const ladder = streamingStepHeights(target.transform);
      if (ladder) {
        // A streaming package: every file under the row's key, the master playlist's type on the row.
        const outputDir = join(workDir, "stream");
        await mkdir(outputDir);
        const stream = await packageStream(tools, { input, probe, ladder, outputDir, limits, log });
        for (const file of stream.files) {
          await storage.put(
            streamPackageFileKey(cacheKey, file.name),
            createReadStream(join(outputDir, file.name)),
            {
              contentType: streamFileMimeType(file.name),
              expectedSize: file.bytes,
            },
          );
        }
        return { bytes: stream.bytes, output: { mimeType: streamFileMimeType(HLS_MASTER_FILE) } };
      }
      const transform = parseVideoTransform(target.transform);
      const output = join(workDir, "output");
      const result = await transcodeVideo(tools, { input, probe, transform, output, limits, log });
      await storage.put(cacheKey, createReadStream(output), {
        contentType: result.output.mimeType,
        expectedSize: result.bytes,
      });
      return result;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  };

  return async (job: ClaimedJob<VideoRenderPayload>): Promise<void> => {
    const cacheKey = job.payload?.cacheKey;
    if (typeof cacheKey !== "string") throw new PermanentJobError("video.render without a cache key");
    const target = await startVideoOutput(db, cacheKey);
    if (!target) return;
    try {
      const result = await render(cacheKey, target);
      if (
        !(await finishVideoOutput(db, cacheKey, { mimeType: result.output.mimeType, size: result.bytes }))
      ) {
        // The file was deleted while it rendered (its rows went by cascade, its objects with
        // deleteFileObjects, maybe before this put): nothing may name or keep this object.
        await deleteVideoOutputObjects(storage, { cacheKey, transform: target.transform });
        return;
      }
      const evicted = await evictVideoOutputs(db, storage, target.fileId, config.delivery.maxVariantsPerFile);
      if (evicted > 0) log.debug({ fileId: target.fileId, evicted }, "video outputs evicted");
    } catch (error) {
      const refused = refusal(error);
      if (refused) {
        await failVideoOutput(db, cacheKey, refused.code);
        throw refused;
      }
      if (job.attempts >= job.maxAttempts) await failVideoOutput(db, cacheKey, "VIDEO_FAILED");
      throw error;
    }
  };
}

/** The permanent failures, as the error the runner records (never ffmpeg's stderr or a path). */
function refusal(error: unknown): RenderRefused | undefined {
  if (error instanceof RenderRefused) return error;
  if (
    error instanceof VideoInputError ||
    error instanceof VideoRenderError ||
    error instanceof VideoInputTooLargeError
  ) {
    return new RenderRefused(error.code, error.message);
  }
  return undefined;
}
