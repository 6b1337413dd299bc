/**
 * Test support for the video engine: small real videos made with ffmpeg at test time (never
 * committed), the tool sets to run each suite with (the system's ffmpeg on PATH and the npm
 * package's 4.1 build, which is an optional dependency that installs here, so its absence
 * fails), and ffprobe's reading of an output.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";
import { locateVideoTools, packagedBinary, type VideoTools } from "./locate-video-tools.js";
import type { VideoLimits } from "./video-limits.js";

const run = promisify(execFile);

export const TEST_LIMITS: VideoLimits = {
  maxDurationSeconds: 3600,
  maxPixels: 3840 * 2160,
  maxFrameRate: 120,
  timeoutMs: 60_000,
  maxOutputBytes: 512 * 1024 * 1024,
};

/** The tool sets every engine suite runs with: PATH's and the npm package's. */
export async function videoToolSets(): Promise<{ name: string; tools: VideoTools }[]> {
  const onPath = await locateVideoTools({});
  const packaged = await locateVideoTools({
    ffmpegPath: packagedBinary("ffmpeg") ?? "(@ffmpeg-installer/linux-x64 is not installed)",
    ffprobePath: packagedBinary("ffprobe") ?? "(@ffprobe-installer/linux-x64 is not installed)",
  });
  if (onPath?.origin !== "path") throw new Error("these tests need ffmpeg and ffprobe on PATH");
  if (!packaged) throw new Error("the optional @ffmpeg-installer/@ffprobe-installer packages are missing");
  return [
    { name: `PATH ffmpeg ${onPath.version}`, tools: onPath },
    { name: `npm ffmpeg ${packaged.version}`, tools: packaged },
  ];
}

/** What probeVideo reads of the landscape fixture, its duration (3 s) aside. */
export const LANDSCAPE_PROBE = {
  container: "mp4",
  width: 320,
  height: 240,
  videoCodec: "h264",
  audioCodec: "aac",
  frameRate: 25,
  rotation: 0,
} as const;

const SOURCE = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25"];
const TONE = ["-f", "lavfi", "-i", "sine=frequency=440"];
const H264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];

export interface VideoFixtures {
  dir: string;
  /** 320×240, 3 s, 25 fps, H.264 + AAC, with a GPS position and a device in its metadata. */
  landscape: string;
  /** The landscape file's frames with a 90° display rotation: shown 240×320. */
  rotated: string;
  /** 240×320 frames (transposed), 2 s, no audio. */
  portrait: string;
  /** 320×240, 2 s, VP8 + Vorbis in WebM. */
  webm: string;
  /** 320×240, 10 s, no audio. */
  long: string;
  /** Only an audio stream, in Matroska. */
  audioOnly: string;
  cleanup(): Promise<void>;
}

/** Makes the fixtures with the system ffmpeg (the rotation tag with the package's: 5.1 ignores it). */
export async function makeVideoFixtures(tools: VideoTools, packaged: VideoTools): Promise<VideoFixtures> {
  const dir = await mkdtemp(join(tmpdir(), "trove-video-"));
  const ffmpeg = (args: string[]) => run(tools.ffmpeg, ["-v", "error", "-nostdin", "-y", ...args]);
  const file = (name: string) => join(dir, name);
  await Promise.all([
    ffmpeg([
      ...SOURCE,
      ...TONE,
      "-t",
      "3",
      ...H264,
      "-c:a",
      "aac",
      "-metadata",
      "location=+48.8584+002.2945/",
      "-metadata",
      "make=Phone",
      // Without it the mp4 muxer keeps only the tags it knows (location, not make).
      "-movflags",
      "use_metadata_tags",
      file("landscape.mp4"),
    ]),
    ffmpeg([...SOURCE, "-t", "2", "-vf", "transpose=clock", ...H264, file("portrait.mp4")]),
    ffmpeg([
      ...SOURCE,
      ...TONE,
      "-t",
      "2",
      "-c:v",
      "libvpx",
      "-b:v",
      "200k",
      "-c:a",
      "libvorbis",
      file("clip.webm"),
    ]),
    ffmpeg([...SOURCE, "-t", "10", ...H264, file("long.mp4")]),
    ffmpeg([...TONE, "-t", "1", "-c:a", "libvorbis", file("audio.mka")]),
  ]);
  await run(packaged.ffmpeg, [
    ...["-v", "error", "-nostdin", "-y", "-i", file("landscape.mp4"), "-c", "copy"],
    ...["-metadata:s:v:0", "rotate=90", file("rotated.mp4")],
  ]);
  return {
    dir,
    landscape: file("landscape.mp4"),
    rotated: file("rotated.mp4"),
    portrait: file("portrait.mp4"),
    webm: file("clip.webm"),
    long: file("long.mp4"),
    audioOnly: file("audio.mka"),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface ProbedOutput {
  formatName: string;
  duration: number;
  formatTags: Record<string, string>;
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    nb_read_frames?: string;
    tags?: Record<string, string>;
  }[];
}

/** ffprobe's reading of an output, frames counted. */
export async function probeOutput(tools: VideoTools, path: string): Promise<ProbedOutput> {
  const { stdout } = await run(tools.ffprobe, [
    ...["-v", "error", "-count_frames", "-show_streams", "-show_format", "-of", "json", path],
  ]);
  const json = JSON.parse(stdout) as {
    format: { format_name: string; duration?: string; tags?: Record<string, string> };
    streams: ProbedOutput["streams"];
  };
  return {
    formatName: json.format.format_name,
    duration: Number(json.format.duration ?? Number.NaN),
    formatTags: json.format.tags ?? {},
    streams: json.streams,
  };
}

/** Processes whose command line mentions `text` (a test's unique output path): none once killed. */
export function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1").includes(text)) pids.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return pids;
}

/**
 * The tool sets of this machine and the fixtures made once for a test file (removed after it):
 * `fixtures()` reads them inside a test.
 */
export async function useVideoFixtures() {
  const toolSets = await videoToolSets();
  let fixtures: VideoFixtures | undefined;
  beforeAll(async () => {
    fixtures = await makeVideoFixtures(toolSets[0]!.tools, toolSets[1]!.tools);
  });
  afterAll(() => fixtures?.cleanup());
  return {
    toolSets,
    fixtures: (): VideoFixtures => {
      if (!fixtures) throw new Error("the video fixtures are made in beforeAll");
      return fixtures;
    },
  };
}
