/**
 * Adaptive streaming packages (issue #33): one ffmpeg run renders every rendition of a ladder as
 * fragmented MP4 (CMAF) segments of about STREAM_SEGMENT_SECONDS, and writes both an HLS master
 * playlist (with a media playlist per rendition) and a DASH manifest over the SAME segments
 * (ffmpeg's DASH muxer with `hls_playlist`), so a package is stored once for both protocols.
 * Written for ffmpeg 4.1 (the npm build) and 5.1 alike.
 *
 * - Renditions: the ladder's heights at or below the source's (never upscaled); a ladder wholly
 *   above the source keeps one rendition at the source's height (rounded down to even).
 * - Keyframes every STREAM_SEGMENT_SECONDS in every rendition (`-force_key_frames`, no scene-cut
 *   keyframes), so segments align across renditions and a player can switch between them.
 * - H.264 + AAC (audio once, shared by every rendition, when the source has it), no metadata or
 *   chapters of the source, the same input whitelist as every video job (./tool-input.ts).
 * - Bounded like a transcode: the time limit, and maxOutputBytes for all files together.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { AAC_AUDIO, H264_ENCODING, inputArguments, OUTPUT_HYGIENE } from "./ffmpeg-arguments.js";
import type { VideoTools } from "./locate-video-tools.js";
import type { VideoProbe } from "./probe-video.js";
import { runTool } from "./run-tool.js";
import { toolFileUrl } from "./tool-input.js";
import type { VideoLog } from "./transcode-video.js";
import { VideoRenderError } from "./video-errors.js";
import type { VideoLimits } from "./video-limits.js";

export const STREAM_SEGMENT_SECONDS = 4;
/** The HLS master playlist and the DASH manifest, as ffmpeg names them in the package. */
export const HLS_MASTER_FILE = "master.m3u8";
export const DASH_MANIFEST_FILE = "manifest.mpd";

/**
 * Every name a package may hold: the two manifests, a media playlist per rendition, an init
 * segment and numbered media segments per representation. Nothing else is ever stored or served
 * from a package, so a request cannot name a path outside it.
 */
const PACKAGE_FILE =
  /^(?:master\.m3u8|manifest\.mpd|media_\d{1,2}\.m3u8|init-\d{1,2}\.m4s|seg-\d{1,2}-\d{5,9}\.m4s)$/;

export function isStreamPackageFile(name: string): boolean {
  return PACKAGE_FILE.test(name);
}

/** The Content-Type of a package file. */
export function streamFileMimeType(name: string): string {
  if (name.endsWith(".m3u8")) return "application/vnd.apple.mpegurl";
  if (name.endsWith(".mpd")) return "application/dash+xml";
  return "video/mp4";
}

/** The heights rendered for `ladder` from a source `probe.height` high (see the module comment). */
export function renditionHeights(ladder: readonly number[], sourceHeight: number): number[] {
  const kept = ladder.filter((height) => height <= sourceHeight);
  if (kept.length > 0) return kept;
  return [Math.max(2, sourceHeight - (sourceHeight % 2))];
}

export function streamArguments(job: {
  input: string;
  probe: VideoProbe;
  heights: readonly number[];
  outputDir: string;
}): string[] {
  const { heights, probe } = job;
  // One display aspect ratio for every rendition (the source's): `-2` rounds each width to even,
  // and DASH refuses an adaptation set whose representations' ratios differ by that rounding.
  const scale = (height: number, i: number) =>
    `scale=-2:${height},setdar=${probe.width}/${probe.height}[v${i}]`;
  const graph =
    heights.length === 1
      ? `[0:v:0]${scale(heights[0] as number, 0)}`
      : `[0:v:0]split=${heights.length}${heights.map((_, i) => `[s${i}]`).join("")};${heights
          .map((height, i) => `[s${i}]${scale(height, i)}`)
          .join(";")}`;
  const audio = probe.audioCodec !== null;
  return [
    ...inputArguments(job.input, probe.container),
    "-filter_complex",
    graph,
    ...heights.flatMap((_, i) => ["-map", `[v${i}]`]),
    ...(audio ? [...AAC_AUDIO, "-ac", "2"] : []),
    ...H264_ENCODING,
    "-force_key_frames",
    `expr:gte(t,n_forced*${STREAM_SEGMENT_SECONDS})`,
    "-sc_threshold",
    "0",
    ...OUTPUT_HYGIENE,
    "-f",
    "dash",
    "-seg_duration",
    String(STREAM_SEGMENT_SECONDS),
    "-use_template",
    "1",
    "-use_timeline",
    "1",
    "-hls_playlist",
    "1",
    "-adaptation_sets",
    audio ? "id=0,streams=v id=1,streams=a" : "id=0,streams=v",
    "-init_seg_name",
    "init-$RepresentationID$.m4s",
    "-media_seg_name",
    "seg-$RepresentationID$-$Number%05d$.m4s",
    "-y",
    toolFileUrl(join(job.outputDir, DASH_MANIFEST_FILE)),
  ];
}

export interface StreamPackage {
  /** Every file of the package (names pass isStreamPackageFile), with its size. */
  files: Array<{ name: string; bytes: number }>;
  bytes: number;
  heights: number[];
}

/** Renders the package of `ladder` into the empty local directory `outputDir`. */
export async function packageStream(
  tools: VideoTools,
  job: {
    input: string;
    probe: VideoProbe;
    ladder: readonly number[];
    outputDir: string;
    limits: VideoLimits;
    signal?: AbortSignal | undefined;
    log?: VideoLog | undefined;
  },
): Promise<StreamPackage> {
  const heights = renditionHeights(job.ladder, job.probe.height);
  const args = streamArguments({ ...job, heights });
  const tooLarge = async () => (await directorySize(job.outputDir)) > job.limits.maxOutputBytes;
  const run = await runTool(tools.ffmpeg, args, {
    timeoutMs: job.limits.timeoutMs,
    signal: job.signal,
    watch: tooLarge,
  }).catch((error: unknown) => {
    job.log?.debug({ err: error }, "ffmpeg could not be started");
    throw new VideoRenderError("VIDEO_FAILED", "The video transcoder could not be started.");
  });
  if (run.killed === "timeout") {
    throw new VideoRenderError("VIDEO_TIMEOUT", `The stream took longer than ${job.limits.timeoutMs} ms.`);
  }
  const files = await listPackage(job.outputDir);
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  if (run.killed === "watch" || bytes > job.limits.maxOutputBytes) {
    throw new VideoRenderError(
      "VIDEO_OUTPUT_TOO_LARGE",
      `The stream's files are larger than ${job.limits.maxOutputBytes} bytes together.`,
    );
  }
  if (run.killed !== null || run.exitCode !== 0 || !files.some((file) => file.name === HLS_MASTER_FILE)) {
    if (run.stderrTail) job.log?.debug({ stderr: run.stderrTail, exitCode: run.exitCode }, "stream failed");
    throw new VideoRenderError("VIDEO_FAILED", "The video could not be packaged for streaming.");
  }
  return { files, bytes, heights };
}

/** The package's files; anything ffmpeg wrote under another name (a temp file) is left out. */
async function listPackage(dir: string): Promise<Array<{ name: string; bytes: number }>> {
  const names = (await readdir(dir)).filter(isStreamPackageFile).sort();
  return Promise.all(names.map(async (name) => ({ name, bytes: (await stat(join(dir, name))).size })));
}

async function directorySize(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(
    names.map((name) =>
      stat(join(dir, name)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}
