import { existsSync } from "node:fs";
import { join } from "node:path";
import type { VideoTransform } from "@trove/schema";
import { describe, expect, it } from "vitest";
import { probeVideo, type VideoProbe } from "./probe-video.js";
import { transcodeVideo } from "./transcode-video.js";
import { VideoRenderError } from "./video-errors.js";
import {
  probeOutput,
  processesMentioning,
  TEST_LIMITS,
  useVideoFixtures,
} from "./video-fixtures.test-support.js";
import { videoOutputOf } from "./video-output.js";

const { toolSets, fixtures: made } = await useVideoFixtures();

describe("videoOutputOf", () => {
  it("is MP4 by default, GIF for f_gif, WebP for thumb_ar", () => {
    expect(videoOutputOf({})).toEqual({ format: "mp4", mimeType: "video/mp4", extension: "mp4" });
    expect(videoOutputOf({ f: "gif", w: 200 })).toEqual({
      format: "gif",
      mimeType: "image/gif",
      extension: "gif",
    });
    expect(videoOutputOf({ thumb: true, so: 1 })).toEqual({
      format: "webp",
      mimeType: "image/webp",
      extension: "webp",
    });
  });
});

describe.each(toolSets)("transcodeVideo with $name", ({ name, tools }) => {
  let count = 0;
  const outputPath = (extension: string) =>
    join(made().dir, `${name.replace(/\W/g, "")}-${++count}.${extension}`);
  const probes = new Map<string, VideoProbe>();
  const probeOf = async (input: string) => {
    const known = probes.get(input);
    if (known) return known;
    const probe = await probeVideo(tools, input, input.endsWith(".webm") ? "webm" : "mp4", TEST_LIMITS);
    probes.set(input, probe);
    return probe;
  };
  async function render(transform: VideoTransform, input = made().landscape, limits = TEST_LIMITS) {
    const output = outputPath(videoOutputOf(transform).extension);
    const result = await transcodeVideo(tools, {
      input,
      probe: await probeOf(input),
      transform,
      output,
      limits,
    });
    expect(result.bytes).toBeGreaterThan(0);
    return { result, read: await probeOutput(tools, output), output };
  }
  const videoOf = (read: Awaited<ReturnType<typeof probeOutput>>) =>
    read.streams.find((stream) => stream.codec_type === "video");

  it("makes an H.264 + AAC MP4 of the whole video, keeping its size", async () => {
    const { result, read } = await render({});
    expect(result.output.format).toBe("mp4");
    expect(read.formatName).toContain("mp4");
    expect(videoOf(read)).toMatchObject({ codec_name: "h264", width: 320, height: 240 });
    expect(read.streams.find((stream) => stream.codec_type === "audio")?.codec_name).toBe("aac");
    expect(read.duration).toBeCloseTo(3, 0);
  });

  it("writes no metadata of the source: no GPS position, no device", async () => {
    const source = await probeOutput(tools, made().landscape);
    expect(source.formatTags).toMatchObject({ location: "+48.8584+002.2945/", make: "Phone" });
    const { read } = await render({ w: 160 });
    expect(read.formatTags).not.toHaveProperty("location");
    expect(read.formatTags).not.toHaveProperty("make");
    expect(JSON.stringify(read)).not.toContain("48.8584");
  });

  it("trims with so_ and d_, and with so_ and eo_", async () => {
    expect((await render({ so: 0.5, d: 1 })).read.duration).toBeCloseTo(1, 0);
    expect((await render({ so: 1, eo: 2.5 })).read.duration).toBeCloseTo(1.5, 0);
    // An end past the end of the video is clamped to it.
    expect((await render({ so: 2, eo: 60 })).read.duration).toBeCloseTo(1, 0);
  });

  it("fails a start past the end of the video", async () => {
    await expect(render({ so: 5 })).rejects.toMatchObject({ name: "VideoRenderError", code: "VIDEO_FAILED" });
  });

  it("scales to one side keeping the ratio, rounding to even, never upscaling", async () => {
    expect(videoOf((await render({ w: 161 })).read)).toMatchObject({ width: 162, height: 122 });
    expect(videoOf((await render({ h: 100 })).read)).toMatchObject({ width: 134, height: 100 });
    expect(videoOf((await render({ w: 1000 })).read)).toMatchObject({ width: 320, height: 240 });
  });

  it("pads to both sides with a colour, crops with cm_extract, blurs behind with bg_blurred", async () => {
    expect(
      videoOf((await render({ w: 200, h: 200, bg: { kind: "colour", hex: "ff0000" } })).read),
    ).toMatchObject({
      width: 200,
      height: 200,
    });
    expect(videoOf((await render({ w: 120, h: 200, cm: "extract" })).read)).toMatchObject({
      width: 120,
      height: 200,
    });
    expect(
      videoOf((await render({ w: 200, h: 120, bg: { kind: "blurred", strength: 40 } })).read),
    ).toMatchObject({
      width: 200,
      height: 120,
    });
    // ar_ with one side makes the other: a 1:1 pad of 160.
    expect(videoOf((await render({ w: 160, ar: { w: 1, h: 1 } })).read)).toMatchObject({
      width: 160,
      height: 160,
    });
  });

  it("flips and rotates clockwise by quarter turns after sizing", async () => {
    expect(videoOf((await render({ w: 160, r: 90 })).read)).toMatchObject({ width: 120, height: 160 });
    expect(videoOf((await render({ w: 160, r: 180, flip: "hv" })).read)).toMatchObject({
      width: 160,
      height: 120,
    });
    expect(videoOf((await render({ w: 160, r: 270, flip: "h" })).read)).toMatchObject({
      width: 120,
      height: 160,
    });
  });

  it("turns a rotated source upright", async () => {
    expect(videoOf((await render({}, made().rotated)).read)).toMatchObject({ width: 240, height: 320 });
  });

  it("makes an animated GIF, 480 wide at most, 12 frames a second, no audio", async () => {
    const { read, result } = await render({ f: "gif", so: 1, d: 1 });
    expect(result.output.mimeType).toBe("image/gif");
    expect(read.formatName).toBe("gif");
    expect(read.streams).toHaveLength(1);
    const frames = Number(videoOf(read)?.nb_read_frames);
    expect(frames).toBeGreaterThanOrEqual(11);
    expect(frames).toBeLessThanOrEqual(13);
    expect(videoOf(read)).toMatchObject({ width: 320, height: 240 });
    expect(videoOf((await render({ f: "gif", w: 100, d: 0.5 })).read)).toMatchObject({
      width: 100,
      height: 76,
    });
  });

  it("makes a WebP still of the frame at so_, sized by w_", async () => {
    const { read, result } = await render({ thumb: true, so: 1.5, w: 100 });
    expect(result.output.mimeType).toBe("image/webp");
    expect(read.formatName).toContain("webp");
    expect(read.streams).toHaveLength(1);
    expect(videoOf(read)).toMatchObject({ codec_name: "webp", width: 100, height: 76 });
  });

  it("transcodes a WebM and a video without audio to MP4", async () => {
    const webm = await render({ w: 160 }, made().webm);
    expect(videoOf(webm.read)).toMatchObject({ codec_name: "h264", width: 160, height: 120 });
    expect(webm.read.streams.find((stream) => stream.codec_type === "audio")?.codec_name).toBe("aac");
    const silent = await render({}, made().portrait);
    expect(silent.read.streams.map((stream) => stream.codec_type)).toEqual(["video"]);
  });

  it("kills ffmpeg on the deadline, leaving no output and no process", async () => {
    const output = outputPath("mp4");
    const probe = await probeOf(made().long);
    const error = await transcodeVideo(tools, {
      input: made().long,
      probe,
      transform: {},
      output,
      limits: { ...TEST_LIMITS, timeoutMs: 1 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoRenderError);
    expect(error).toMatchObject({ code: "VIDEO_TIMEOUT" });
    expect(existsSync(output)).toBe(false);
    expect(processesMentioning(output)).toEqual([]);
  });

  it("fails an output over maxOutputBytes, leaving no output and no process", async () => {
    const output = outputPath("mp4");
    const error = await transcodeVideo(tools, {
      input: made().long,
      probe: await probeOf(made().long),
      transform: {},
      output,
      limits: { ...TEST_LIMITS, maxOutputBytes: 1000 },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "VideoRenderError", code: "VIDEO_OUTPUT_TOO_LARGE" });
    expect((error as Error).message).not.toContain(made().dir);
    expect(existsSync(output)).toBe(false);
    expect(processesMentioning(output)).toEqual([]);
  });

  it("kills ffmpeg when the signal aborts", async () => {
    const output = outputPath("mp4");
    const controller = new AbortController();
    controller.abort();
    const error = await transcodeVideo(tools, {
      input: made().long,
      probe: await probeOf(made().long),
      transform: {},
      output,
      limits: TEST_LIMITS,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "VideoRenderError", code: "VIDEO_FAILED" });
    expect(existsSync(output)).toBe(false);
    expect(processesMentioning(output)).toEqual([]);
  });

  it("logs ffmpeg's stderr at debug, never in the error", async () => {
    const logged: object[] = [];
    const output = outputPath("mp4");
    // A WebM forced through the mov demuxer: ffmpeg fails to read it.
    const probe = { ...(await probeOf(made().landscape)), durationSeconds: 3 };
    const error = await transcodeVideo(tools, {
      input: made().webm,
      probe,
      transform: {},
      output,
      limits: TEST_LIMITS,
      log: { debug: (details) => logged.push(details) },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "VideoRenderError", code: "VIDEO_FAILED" });
    expect((error as Error).message).not.toContain(made().dir);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toHaveProperty("stderr");
  });
});

describe("transcodeVideo without a working ffmpeg", () => {
  it("fails with a sentence that names no path", async () => {
    const tools = { ...toolSets[0]!.tools, ffmpeg: "/nonexistent/trove-test/ffmpeg" };
    const probe = await probeVideo(tools, made().landscape, "mp4", TEST_LIMITS);
    const output = join(made().dir, "no-ffmpeg.mp4");
    const error = await transcodeVideo(tools, {
      input: made().landscape,
      probe,
      transform: {},
      output,
      limits: TEST_LIMITS,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "VideoRenderError", code: "VIDEO_FAILED" });
    expect((error as Error).message).not.toContain("/nonexistent");
    expect(existsSync(output)).toBe(false);
  });
});
