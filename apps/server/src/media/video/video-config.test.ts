import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, resolveConfig } from "../../config.js";
import { resolveVideoLimits } from "./video-limits.js";

describe("config.video", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-video-config-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("defaults: one transcode at once, 5 minutes, 512 MiB, an hour, 4K UHD, 120 fps; binaries unset", () => {
    const { video } = loadConfig({ TROVE_DATA_DIR: dir });
    expect(video).toEqual({
      concurrency: 1,
      timeoutMs: 300_000,
      maxOutputBytes: 536_870_912,
      maxDurationSeconds: 3600,
      maxPixels: 3840 * 2160,
      maxFrameRate: 120,
    });
    expect(resolveConfig({}).video).toEqual(video);
  });

  it("reads every TROVE_VIDEO_* setting and the binary paths", () => {
    const { video } = loadConfig({
      TROVE_DATA_DIR: dir,
      TROVE_FFMPEG_PATH: " /opt/ff/ffmpeg ",
      TROVE_FFPROBE_PATH: "/opt/ff/ffprobe",
      TROVE_VIDEO_CONCURRENCY: "2",
      TROVE_VIDEO_TIMEOUT_MS: "60000",
      TROVE_VIDEO_MAX_OUTPUT_BYTES: "64MiB",
      TROVE_VIDEO_MAX_DURATION_SECONDS: "600",
      TROVE_VIDEO_MAX_PIXELS: "2073600",
      TROVE_VIDEO_MAX_FRAME_RATE: "60",
    });
    expect(video).toEqual({
      ffmpegPath: "/opt/ff/ffmpeg",
      ffprobePath: "/opt/ff/ffprobe",
      concurrency: 2,
      timeoutMs: 60_000,
      maxOutputBytes: 64 * 1024 * 1024,
      maxDurationSeconds: 600,
      maxPixels: 2_073_600,
      maxFrameRate: 60,
    });
    expect(resolveVideoLimits(video)).toEqual({
      maxDurationSeconds: 600,
      maxPixels: 2_073_600,
      maxFrameRate: 60,
      timeoutMs: 60_000,
      maxOutputBytes: 64 * 1024 * 1024,
    });
  });

  it("refuses a value out of range, naming the variable", () => {
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_VIDEO_CONCURRENCY: "0" })).toThrow(ConfigError);
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_VIDEO_MAX_PIXELS: "lots" })).toThrow(
      /TROVE_VIDEO_MAX_PIXELS/,
    );
  });
});
