/**
 * Runs one video transform with ffmpeg into a local output file, within the limits: killed
 * (SIGKILL) on the deadline, when the output grows past maxOutputBytes (its size is polled while
 * ffmpeg writes, and checked once more at the end), or when `signal` aborts. A failed run leaves
 * no output file behind. Errors never carry ffmpeg's stderr or a path; its tail goes to `log`.
 */
import { rm, stat } from "node:fs/promises";
import type { VideoTransform } from "@trove/schema";
import { ffmpegArguments, trimOf } from "./ffmpeg-arguments.js";
import type { VideoTools } from "./locate-video-tools.js";
import type { VideoProbe } from "./probe-video.js";
import { runTool, type ToolRun } from "./run-tool.js";
import { VideoRenderError } from "./video-errors.js";
import type { VideoLimits } from "./video-limits.js";
import { type VideoOutput, videoOutputOf } from "./video-output.js";

/** Where the stderr tail of a failed run goes (a pino logger fits). */
export interface VideoLog {
  debug(details: object, message: string): void;
}

export interface TranscodeJob {
  /** A local file whose container the probe named. */
  input: string;
  probe: VideoProbe;
  transform: VideoTransform;
  /** A local file path to write; overwritten. */
  output: string;
  limits: VideoLimits;
  signal?: AbortSignal | undefined;
  log?: VideoLog | undefined;
}

export async function transcodeVideo(
  tools: VideoTools,
  job: TranscodeJob,
): Promise<{ bytes: number; output: VideoOutput }> {
  const output = videoOutputOf(job.transform);
  const trim = trimOf(job.transform, job.probe.durationSeconds);
  if (trim === null) {
    throw new VideoRenderError("VIDEO_FAILED", "The start offset is past the end of the video.");
  }
  const args = ffmpegArguments({ ...job, trim, format: output.format });
  const tooLarge = async () => (await sizeOf(job.output)) > job.limits.maxOutputBytes;
  let run: ToolRun;
  try {
    run = await runTool(tools.ffmpeg, args, {
      timeoutMs: job.limits.timeoutMs,
      signal: job.signal,
      watch: tooLarge,
    });
  } catch (error) {
    job.log?.debug({ err: error }, "ffmpeg could not be started");
    throw new VideoRenderError("VIDEO_FAILED", "The video transcoder could not be started.");
  }
  const bytes = await sizeOf(job.output);
  const failure = failureOf(run, bytes > job.limits.maxOutputBytes, job.limits);
  if (failure) {
    await rm(job.output, { force: true });
    if (run.stderrTail) job.log?.debug({ stderr: run.stderrTail, exitCode: run.exitCode }, failure.message);
    throw failure;
  }
  return { bytes, output };
}

function failureOf(run: ToolRun, oversized: boolean, limits: VideoLimits): VideoRenderError | null {
  if (run.killed === "timeout") {
    return new VideoRenderError(
      "VIDEO_TIMEOUT",
      `The video transform took longer than ${limits.timeoutMs} ms.`,
    );
  }
  if (run.killed === "watch" || oversized) {
    return new VideoRenderError(
      "VIDEO_OUTPUT_TOO_LARGE",
      `The video transform's output is larger than ${limits.maxOutputBytes} bytes.`,
    );
  }
  if (run.killed === "aborted")
    return new VideoRenderError("VIDEO_FAILED", "The video transform was cancelled.");
  if (run.exitCode !== 0) return new VideoRenderError("VIDEO_FAILED", "The video could not be transcoded.");
  return null;
}

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (stats) => stats.size,
    () => 0,
  );
}
