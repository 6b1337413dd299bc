/**
 * ffmpeg and ffprobe of this instance, located once per config (locateVideoTools looks at the
 * settings, then PATH, then the npm package: file system lookups and a `-version` run each, too
 * slow for every request). Unavailable: this instance cannot transcode, and video transforms
 * answer 503 with `reason`, which names the setting; images are unaffected.
 */
import { ConfigError } from "../config/config-error.js";
import { locateVideoTools, type VideoTools } from "../media/video/locate-video-tools.js";
import type { VideoConfig } from "../media/video/video-config.js";

export type LocatedVideoTools = { tools: VideoTools } | { tools: null; reason: string };

const NOT_FOUND =
  "Video transformations need ffmpeg and ffprobe, and this server has neither on PATH nor from its npm package: install them or set TROVE_FFMPEG_PATH and TROVE_FFPROBE_PATH";

const located = new WeakMap<VideoConfig, Promise<LocatedVideoTools>>();

/** This instance's tools, or null with the reason it has none (a 503's message). */
export function videoToolsFor(video: VideoConfig): Promise<LocatedVideoTools> {
  let found = located.get(video);
  if (!found) {
    found = locateVideoTools({ ffmpegPath: video.ffmpegPath, ffprobePath: video.ffprobePath }).then(
      (tools): LocatedVideoTools => (tools ? { tools } : { tools: null, reason: NOT_FOUND }),
      (error: unknown): LocatedVideoTools => {
        // A setting naming no usable binary (startup refuses it; an embedder may not have started
        // that way): this instance has no tools, for the reason the error names.
        if (error instanceof ConfigError) {
          return { tools: null, reason: `Video transformations are unavailable: ${error.message}` };
        }
        located.delete(video);
        throw error;
      },
    );
    located.set(video, found);
  }
  return found;
}
