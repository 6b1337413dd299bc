/**
 * `config.video`: where ffmpeg and ffprobe are (unset: found by locateVideoTools), how many
 * transcodes run at once, and the limits of one transform (./video-limits.ts). Settings:
 * TROVE_FFMPEG_PATH, TROVE_FFPROBE_PATH, TROVE_VIDEO_* (declared in src/config/settings.ts).
 */
import { SETTINGS } from "../../config/settings.js";

export interface VideoConfig {
  /** TROVE_FFMPEG_PATH; unset: `ffmpeg` on PATH, then the npm package. */
  ffmpegPath?: string;
  /** TROVE_FFPROBE_PATH; unset: `ffprobe` on PATH, then the npm package. */
  ffprobePath?: string;
  /** Transcodes at once in this instance. */
  concurrency: number;
  timeoutMs: number;
  maxOutputBytes: number;
  maxDurationSeconds: number;
  maxPixels: number;
  maxFrameRate: number;
}

export const DEFAULT_VIDEO_CONFIG: Readonly<VideoConfig> = Object.freeze({
  concurrency: SETTINGS.TROVE_VIDEO_CONCURRENCY.default,
  timeoutMs: SETTINGS.TROVE_VIDEO_TIMEOUT_MS.default,
  maxOutputBytes: SETTINGS.TROVE_VIDEO_MAX_OUTPUT_BYTES.default,
  maxDurationSeconds: SETTINGS.TROVE_VIDEO_MAX_DURATION_SECONDS.default,
  maxPixels: SETTINGS.TROVE_VIDEO_MAX_PIXELS.default,
  maxFrameRate: SETTINGS.TROVE_VIDEO_MAX_FRAME_RATE.default,
});

/** Fills in the defaults of what is unset; a binary path is kept only when given. */
export function resolveVideoConfig(input: Partial<VideoConfig> = {}): VideoConfig {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_VIDEO_CONFIG, ...defined };
}
