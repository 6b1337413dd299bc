/**
 * Reads what a transform needs to know of a video (its length, displayed frame size, codecs,
 * frame rate, rotation) with ffprobe, and refuses one over the limits before any decoding: the
 * frame size and rate and the duration come from the container's headers.
 */
import { z } from "zod";
import type { VideoTools } from "./locate-video-tools.js";
import { runTool } from "./run-tool.js";
import type { VideoContainer } from "./sniff-video-container.js";
import { forcedDemuxer, PROTOCOL_WHITELIST, toolFileUrl } from "./tool-input.js";
import { VideoInputError, VideoRenderError } from "./video-errors.js";
import type { VideoLimits } from "./video-limits.js";

export interface VideoProbe {
  container: VideoContainer;
  durationSeconds: number;
  /** As displayed: rotation applied. */
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
  frameRate: number;
  /** Clockwise degrees a player turns the coded frame by (the display matrix). */
  rotation: 0 | 90 | 180 | 270;
}

const numeric = z.union([z.string(), z.number()]).optional();
const streamSchema = z.object({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  avg_frame_rate: z.string().optional(),
  r_frame_rate: z.string().optional(),
  duration: numeric,
  tags: z.record(z.string(), z.string()).optional(),
  side_data_list: z.array(z.object({ rotation: z.number().optional() }).loose()).optional(),
});
const probeSchema = z.object({
  streams: z.array(streamSchema.loose()).default([]),
  format: z.object({ duration: numeric }).loose().optional(),
});

type ProbedStream = z.infer<typeof streamSchema>;

const UNREADABLE = "The file is not a video Trove can read.";

export async function probeVideo(
  tools: VideoTools,
  path: string,
  container: VideoContainer,
  limits: VideoLimits,
): Promise<VideoProbe> {
  const args = [
    "-v",
    "error",
    ...PROTOCOL_WHITELIST,
    ...forcedDemuxer(container),
    "-show_streams",
    "-show_format",
    "-of",
    "json",
    toolFileUrl(path),
  ];
  // A spawn error names the binary's path: clients get a sentence instead.
  const run = await runTool(tools.ffprobe, args, { timeoutMs: limits.timeoutMs }).catch(() => {
    throw new VideoRenderError("VIDEO_FAILED", "The video prober could not be started.");
  });
  if (run.killed === "timeout")
    throw new VideoRenderError("VIDEO_TIMEOUT", "Reading the video took too long.");
  if (run.exitCode !== 0) throw new VideoInputError("UNSUPPORTED_VIDEO", UNREADABLE);
  let parsed: z.infer<typeof probeSchema>;
  try {
    parsed = probeSchema.parse(JSON.parse(run.stdout));
  } catch {
    throw new VideoInputError("UNSUPPORTED_VIDEO", UNREADABLE);
  }
  const probe = probeOf(container, parsed);
  enforceLimits(probe, limits);
  return probe;
}

function probeOf(container: VideoContainer, parsed: z.infer<typeof probeSchema>): VideoProbe {
  const video = parsed.streams.find((stream) => stream.codec_type === "video" && isMoving(stream));
  if (!video?.width || !video.height || !video.codec_name) {
    throw new VideoInputError("UNSUPPORTED_VIDEO", "The file has no video stream.");
  }
  const audio = parsed.streams.find((stream) => stream.codec_type === "audio");
  const durationSeconds = positive(parsed.format?.duration) ?? positive(video.duration);
  if (durationSeconds === undefined) throw new VideoInputError("UNSUPPORTED_VIDEO", UNREADABLE);
  const rotation = rotationOf(video);
  const turned = rotation === 90 || rotation === 270;
  return {
    container,
    durationSeconds,
    width: turned ? video.height : video.width,
    height: turned ? video.width : video.height,
    videoCodec: video.codec_name,
    audioCodec: audio?.codec_name ?? null,
    frameRate: rate(video.avg_frame_rate) ?? rate(video.r_frame_rate) ?? 0,
    rotation,
  };
}

/** A cover picture (an MP4's or MKV's attached image) is a video stream too, of one still frame. */
function isMoving(stream: ProbedStream & { disposition?: unknown }): boolean {
  const disposition = stream.disposition as { attached_pic?: number } | undefined;
  return disposition?.attached_pic !== 1;
}

function enforceLimits(probe: VideoProbe, limits: VideoLimits): void {
  if (probe.durationSeconds > limits.maxDurationSeconds) {
    throw new VideoInputError(
      "VIDEO_TOO_LONG",
      `The video is longer than ${limits.maxDurationSeconds} seconds, the most this server transforms.`,
    );
  }
  if (probe.width * probe.height > limits.maxPixels) {
    throw new VideoInputError(
      "VIDEO_TOO_LARGE",
      `The video's frame (${probe.width}×${probe.height}) has more than ${limits.maxPixels} pixels, the most this server transforms.`,
    );
  }
  if (probe.frameRate > limits.maxFrameRate) {
    throw new VideoInputError(
      "VIDEO_TOO_LARGE",
      `The video's frame rate is over ${limits.maxFrameRate} frames per second, the most this server transforms.`,
    );
  }
}

/**
 * Clockwise rotation: the display matrix's angle is counter-clockwise (ffprobe 5 prints only it;
 * 4.1 prints it and a `rotate` tag, clockwise). Anything but a quarter turn reads as none.
 */
function rotationOf(stream: ProbedStream): VideoProbe["rotation"] {
  const matrix = stream.side_data_list?.find((side) => typeof side.rotation === "number")?.rotation;
  const clockwise = matrix !== undefined ? -matrix : Number(stream.tags?.rotate ?? 0);
  const turn = (((Math.round(clockwise) % 360) + 360) % 360) as number;
  return turn === 90 || turn === 180 || turn === 270 ? turn : 0;
}

function positive(value: string | number | undefined): number | undefined {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) && number > 0 ? number : undefined;
}

/** `30000/1001` → 29.97; `0/0` (unknown) → undefined. */
function rate(value: string | undefined): number | undefined {
  const [num, den] = (value ?? "").split("/").map(Number);
  if (num === undefined || den === undefined || !(num > 0) || !(den > 0)) return undefined;
  return num / den;
}
