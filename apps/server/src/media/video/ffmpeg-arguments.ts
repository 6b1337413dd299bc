/**
 * The ffmpeg command line of one video transform. Written for ffmpeg 4.1 (the npm build) and
 * 5.1 alike: no `-fps_mode`, no filter newer than 4.1.
 *
 * - Trim: `-ss` before `-i` (a seek, not a decode from the start) and `-t` for the length.
 * - Input: only the sniffed container's demuxer, only the `file` and `pipe` protocols
 *   (./tool-input.ts).
 * - Output: no metadata and no chapters of the source (`-map_metadata -1 -map_chapters -1`: no
 *   GPS position, no device), only the streams mapped here, two threads per job.
 */
import type { VideoTransform } from "@trove/schema";
import type { VideoProbe } from "./probe-video.js";
import { forcedDemuxer, PROTOCOL_WHITELIST, toolFileUrl } from "./tool-input.js";
import { videoFilterGraph } from "./video-filter-graph.js";
import { videoFrameSize } from "./video-frame-size.js";
import type { VideoOutput } from "./video-output.js";

/** Threads of one ffmpeg (encoder and filters): instances run TROVE_VIDEO_CONCURRENCY jobs. */
export const FFMPEG_THREADS = "2";

/** H.264 as every video output and stream rendition is encoded (yuv420p: what players decode). */
export const H264_ENCODING = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p"];

/** The source's first audio track as AAC (a stream adds its own channel layout). */
export const AAC_AUDIO = ["-map", "0:a:0", "-c:a", "aac", "-b:a", "128k"];

/** Every output: nothing of the source's metadata or chapters (no GPS, no device), bounded threads. */
export const OUTPUT_HYGIENE = ["-map_metadata", "-1", "-map_chapters", "-1", "-threads", FFMPEG_THREADS];

/** Quiet output, then the input: its sniffed demuxer only and local files only (./tool-input.ts). */
export function inputArguments(
  input: string,
  container: VideoProbe["container"],
  seek: string[] = [],
): string[] {
  return [
    "-nostdin",
    "-hide_banner",
    "-v",
    "error",
    ...seek,
    ...PROTOCOL_WHITELIST,
    ...forcedDemuxer(container),
    "-i",
    toolFileUrl(input),
  ];
}

export interface Trim {
  start: number;
  /** Seconds from `start`; undefined: to the end. */
  length: number | undefined;
}

/** The trim of `t` within a video `durationSeconds` long; null when it starts past the end. */
export function trimOf(t: VideoTransform, durationSeconds: number): Trim | null {
  const start = t.so ?? 0;
  if (start >= durationSeconds) return null;
  const end = t.eo ?? (t.d !== undefined ? start + t.d : undefined);
  if (end === undefined || end >= durationSeconds) return { start, length: undefined };
  return { start, length: end - start };
}

export function ffmpegArguments(job: {
  input: string;
  probe: VideoProbe;
  transform: VideoTransform;
  output: string;
  trim: Trim;
  format: VideoOutput["format"];
}): string[] {
  const { probe, transform: t, trim } = job;
  const graph = videoFilterGraph(t, videoFrameSize(t, probe));
  const seek = trim.start > 0 ? ["-ss", seconds(trim.start)] : [];
  const length = trim.length !== undefined && job.format !== "webp" ? ["-t", seconds(trim.length)] : [];
  return [
    ...inputArguments(job.input, probe.container, seek),
    ...length,
    "-filter_complex",
    graph,
    "-map",
    "[v]",
    ...encoding(job.format, probe.audioCodec !== null),
    ...OUTPUT_HYGIENE,
    "-y",
    toolFileUrl(job.output),
  ];
}

function encoding(format: VideoOutput["format"], hasAudio: boolean): string[] {
  if (format === "webp") return ["-an", "-frames:v", "1", "-c:v", "libwebp", "-quality", "80", "-f", "webp"];
  if (format === "gif") return ["-an", "-loop", "0", "-f", "gif"];
  return [...(hasAudio ? AAC_AUDIO : ["-an"]), ...H264_ENCODING, "-movflags", "+faststart", "-f", "mp4"];
}

/** Seconds as ffmpeg reads them, to the millisecond the grammar allows. */
function seconds(value: number): string {
  return value.toFixed(3);
}
