import { describe, expect, it } from "vitest";
import { isMediaError, MediaError } from "./media-error.js";
import { DEFAULT_MEDIA_LIMITS, resolveMediaLimits } from "./media-limits.js";
import { decodeError, timeoutError } from "./sharp-error.js";

const limits = resolveMediaLimits();

describe("MediaError", () => {
  it("carries a shared error code and its status", () => {
    expect(new MediaError("IMAGE_TOO_LARGE", "x")).toMatchObject({ status: 400, name: "MediaError" });
    expect(new MediaError("UNSUPPORTED_MEDIA_TYPE", "x").status).toBe(400);
    expect(new MediaError("INVALID_TRANSFORM", "x").status).toBe(400);
    expect(new MediaError("FILE_TOO_LARGE", "x").status).toBe(413);
    expect(isMediaError(new MediaError("FILE_TOO_LARGE", "x"))).toBe(true);
    expect(isMediaError(new Error("x"))).toBe(false);
  });
});

describe("decodeError", () => {
  it("maps libvips' pixel-limit refusal to IMAGE_TOO_LARGE, naming the limit", () => {
    const error = decodeError(new Error("Input image exceeds pixel limit"), limits);
    expect(error).toMatchObject({
      code: "IMAGE_TOO_LARGE",
      message: "image is larger than the 100000000-pixel input limit",
    });
  });

  it("maps a timeout to IMAGE_TOO_LARGE, anywhere in the pipeline", () => {
    expect(decodeError(new Error("timeout: 42% complete"), limits)).toMatchObject({
      code: "IMAGE_TOO_LARGE",
    });
    expect(timeoutError(new Error("timeout: 42% complete"), limits)?.message).toBe(
      "image processing took longer than the 30-second limit",
    );
    expect(timeoutError(new Error("something else"), limits)).toBeUndefined();
  });

  it("maps any other decoder failure to UNSUPPORTED_MEDIA_TYPE without leaking libvips' text", () => {
    const error = decodeError(new Error("VipsJpeg: premature end of JPEG image /tmp/x"), limits);
    expect(error).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    expect((error as Error).message).not.toContain("/tmp");
  });

  it("passes MediaErrors through", () => {
    const original = new MediaError("INVALID_TRANSFORM", "w_0: width must be 1..8192");
    expect(decodeError(original, limits)).toBe(original);
  });
});

describe("resolveMediaLimits", () => {
  it("fills in defaults and overrides", () => {
    expect(resolveMediaLimits()).toEqual(DEFAULT_MEDIA_LIMITS);
    expect(resolveMediaLimits({ maxOutputPixels: 10, timeoutSeconds: undefined })).toMatchObject({
      maxOutputPixels: 10,
      timeoutSeconds: 30,
    });
  });

  it("refuses a limit that is not a positive integer", () => {
    expect(() => resolveMediaLimits({ maxInputPixels: 0 })).toThrow(RangeError);
    expect(() => resolveMediaLimits({ timeoutSeconds: 1.5 })).toThrow(RangeError);
    expect(() => resolveMediaLimits({ maxInputBytes: Number.NaN })).toThrow(RangeError);
  });
});
