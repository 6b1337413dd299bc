/**
 * Bounds on the work one video transform may cost: the input's length, frame size and frame rate
 * (checked by probeVideo before any decoding) and the transcode's time and output size (enforced
 * while ffmpeg runs, by transcodeVideo). A video transform is asked for by anyone who can read a
 * public file, so each bound is a setting (src/config/settings.ts) with a default that fits one
 * small instance.
 */
import type { VideoConfig } from "./video-config.js";

export interface VideoLimits {
  /** Longest input, seconds (TROVE_VIDEO_MAX_DURATION_SECONDS). */
  maxDurationSeconds: number;
  /** Largest input frame, width × height (TROVE_VIDEO_MAX_PIXELS). */
  maxPixels: number;
  /** Highest input frame rate, frames per second (TROVE_VIDEO_MAX_FRAME_RATE). */
  maxFrameRate: number;
  /** Longest one ffprobe or ffmpeg run may take, ms (TROVE_VIDEO_TIMEOUT_MS). */
  timeoutMs: number;
  /** Largest output file, bytes (TROVE_VIDEO_MAX_OUTPUT_BYTES). */
  maxOutputBytes: number;
}

/** The limits part of `config.video`. */
export function resolveVideoLimits(video: VideoConfig): VideoLimits {
  return {
    maxDurationSeconds: video.maxDurationSeconds,
    maxPixels: video.maxPixels,
    maxFrameRate: video.maxFrameRate,
    timeoutMs: video.timeoutMs,
    maxOutputBytes: video.maxOutputBytes,
  };
}
