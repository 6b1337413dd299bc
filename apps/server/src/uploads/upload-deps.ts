/**
 * What registering an upload needs, as one bag, so the same registration runs from a route, a
 * multipart complete, the CLI and a test. The composition root (src/services.ts) builds the
 * server's once; routes read it as `app.uploadDeps`.
 */
import type { FastifyBaseLogger } from "fastify";
import type { RawQuery } from "../db/direct-sql.js";
import type { RenderGate } from "../delivery/render-gate.js";
import type { UrlBuilder } from "../files/file-urls.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { MediaLimits } from "../media/media-limits.js";
import type { VideoConfig } from "../media/video/video-config.js";
import type { TroveMetrics } from "../metrics/trove-metrics.js";
import type { TrustedRangesInput } from "../network/trusted-ranges.js";
import type { StorageDriver } from "../storage/driver.js";

export interface UploadDeps {
  db: PrismaClient;
  /** Single statements outside transactions (`app.database.sql`, no Prisma); unset: `db`. */
  sql?: RawQuery;
  storage: StorageDriver;
  deliveryUrl: UrlBuilder["deliveryUrl"];
  /** Signing of private files' URLs. */
  config: UrlBuilder["config"];
  mediaLimits?: Partial<MediaLimits>;
  /** Mark raster images for the placeholder sweep (TROVE_PLACEHOLDERS; unset: on). */
  placeholders?: boolean;
  /**
   * Largest direct or remote upload (TROVE_MAX_UPLOAD_BYTES): a store-time transform's output is
   * held to it (and to the policy's `max_file_size`) like the bytes that arrived. Unset: no cap.
   */
  maxUploadBytes?: number;
  /** Admits transform uploads with delivery renders (unset: no bound, for embedders and tests). */
  renderGate?: Pick<RenderGate, "run">;
  /** For webhook URLs that are IP literals in a trusted range. */
  trustedRanges?: TrustedRangesInput;
  /** Attempts of a webhook delivery before it is marked failed (queue default 10). */
  webhookMaxAttempts?: number;
  log?: Pick<FastifyBaseLogger, "warn">;
  /** Counts each registered file (src/metrics/); null or absent when metrics are off. */
  metrics?: Pick<TroveMetrics, "upload"> | null;
  /** ffprobe for a stored video's record fields (./probe-uploaded-video.ts); unset: not probed. */
  video?: VideoConfig;
}
