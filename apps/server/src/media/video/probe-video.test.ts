import { describe, expect, it } from "vitest";
import { probeVideo } from "./probe-video.js";
import { VideoInputError } from "./video-errors.js";
import { LANDSCAPE_PROBE, TEST_LIMITS, useVideoFixtures } from "./video-fixtures.test-support.js";

const { toolSets, fixtures: made } = await useVideoFixtures();

describe.each(toolSets)("probeVideo with $name", ({ tools }) => {
  it("reads duration, size, codecs and frame rate", async () => {
    const probe = await probeVideo(tools, made().landscape, "mp4", TEST_LIMITS);
    expect(probe).toMatchObject(LANDSCAPE_PROBE);
    expect(probe.durationSeconds).toBeCloseTo(3, 1);
  });

  it("gives the displayed size of a rotated video, and its rotation", async () => {
    const probe = await probeVideo(tools, made().rotated, "mp4", TEST_LIMITS);
    expect(probe).toMatchObject({ width: 240, height: 320 });
    expect([90, 270]).toContain(probe.rotation);
  });

  it("reads a portrait video without audio", async () => {
    const probe = await probeVideo(tools, made().portrait, "mp4", TEST_LIMITS);
    expect(probe).toMatchObject({ width: 240, height: 320, audioCodec: null, rotation: 0 });
  });

  it("reads a WebM", async () => {
    const probe = await probeVideo(tools, made().webm, "webm", TEST_LIMITS);
    expect(probe).toMatchObject({
      container: "webm",
      width: 320,
      height: 240,
      videoCodec: "vp8",
      audioCodec: "vorbis",
    });
  });

  it("refuses a file with no video stream", async () => {
    const error = await probeVideo(tools, made().audioOnly, "matroska", TEST_LIMITS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoInputError);
    expect(error).toMatchObject({ code: "UNSUPPORTED_VIDEO" });
  });

  it("refuses a file the forced demuxer cannot read, without its path in the message", async () => {
    const error = await probeVideo(tools, made().webm, "mp4", TEST_LIMITS).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNSUPPORTED_VIDEO" });
    expect((error as Error).message).not.toContain(made().dir);
  });

  it("refuses a video longer than the limit", async () => {
    const limits = { ...TEST_LIMITS, maxDurationSeconds: 5 };
    await expect(probeVideo(tools, made().long, "mp4", limits)).rejects.toMatchObject({
      name: "VideoInputError",
      code: "VIDEO_TOO_LONG",
    });
    await expect(probeVideo(tools, made().landscape, "mp4", limits)).resolves.toBeTruthy();
  });

  it("refuses a frame over maxPixels and a frame rate over maxFrameRate", async () => {
    await expect(
      probeVideo(tools, made().landscape, "mp4", { ...TEST_LIMITS, maxPixels: 320 * 240 - 1 }),
    ).rejects.toMatchObject({ name: "VideoInputError", code: "VIDEO_TOO_LARGE" });
    await expect(
      probeVideo(tools, made().landscape, "mp4", { ...TEST_LIMITS, maxFrameRate: 24 }),
    ).rejects.toMatchObject({ name: "VideoInputError", code: "VIDEO_TOO_LARGE" });
  });
});

describe("probeVideo without a working ffprobe", () => {
  it("fails with a sentence that names no path", async () => {
    const tools = { ...toolSets[0]!.tools, ffprobe: "/nonexistent/trove-test/ffprobe" };
    const error = await probeVideo(tools, made().landscape, "mp4", TEST_LIMITS).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "VideoRenderError", code: "VIDEO_FAILED" });
    expect((error as Error).message).not.toContain("/nonexistent");
  });
});
