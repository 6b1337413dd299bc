import { describe, expect, it } from "vitest";
import { even, GIF_MAX_WIDTH, videoFrameSize } from "./video-frame-size.js";

const HD = { width: 1280, height: 720 };

describe("videoFrameSize", () => {
  it("rounds to an integer, then up to even, never under 2", () => {
    expect([even(401), even(400), even(239.9), even(241.4), even(0.2)]).toEqual([402, 400, 240, 242, 2]);
  });

  it("keeps the source size, evened, when no side is given", () => {
    expect(videoFrameSize({}, { width: 321, height: 241 })).toEqual({
      width: 322,
      height: 242,
      fit: "scale",
    });
  });

  it("gives a GIF at most GIF_MAX_WIDTH unless a side is given", () => {
    expect(videoFrameSize({ f: "gif" }, HD)).toEqual({ width: GIF_MAX_WIDTH, height: 270, fit: "scale" });
    expect(videoFrameSize({ f: "gif", w: 640 }, HD)).toEqual({ width: 640, height: 360, fit: "scale" });
  });

  it("keeps the ratio from one side and never upscales past the source", () => {
    expect(videoFrameSize({ w: 401 }, HD)).toEqual({ width: 402, height: 226, fit: "scale" });
    expect(videoFrameSize({ h: 360 }, HD)).toEqual({ width: 640, height: 360, fit: "scale" });
    expect(videoFrameSize({ w: 4000 }, HD)).toEqual({ width: 1280, height: 720, fit: "scale" });
  });

  it("fits both sides by padding by default, by cropping with cm_extract, upscaling if asked", () => {
    expect(videoFrameSize({ w: 400, h: 400 }, HD)).toEqual({ width: 400, height: 400, fit: "pad" });
    expect(videoFrameSize({ w: 400, h: 400, cm: "extract" }, HD)).toEqual({
      width: 400,
      height: 400,
      fit: "crop",
    });
    expect(videoFrameSize({ w: 2000, h: 2000, cm: "pad_resize" }, HD)).toEqual({
      width: 2000,
      height: 2000,
      fit: "pad",
    });
  });

  it("makes the other side from ar_, or applies ar_ alone to the source width", () => {
    expect(videoFrameSize({ w: 400, ar: { w: 4, h: 5 } }, HD)).toEqual({
      width: 400,
      height: 500,
      fit: "pad",
    });
    expect(videoFrameSize({ h: 300, ar: { w: 16, h: 9 } }, HD)).toEqual({
      width: 534,
      height: 300,
      fit: "pad",
    });
    expect(videoFrameSize({ ar: { w: 1, h: 1 }, cm: "extract" }, HD)).toEqual({
      width: 1280,
      height: 1280,
      fit: "crop",
    });
  });
});
