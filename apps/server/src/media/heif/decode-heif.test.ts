import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { singleImage } from "../../../test/fixtures/heif/build-heif.js";
import { decodeHeif } from "./decode-heif.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/heif/${name}`, import.meta.url));
const options = { hasAlpha: false, maxPixels: 50_000_000, timeoutMs: 30_000 };

describe("decodeHeif (libheif-js in a worker thread)", () => {
  it("decodes a HEIC to RGB pixels of its displayed size", async () => {
    const decoded = await decodeHeif(fixture("photo-1280x800.heic"), options);
    expect(decoded).toMatchObject({ width: 1280, height: 800, channels: 3 });
    expect(decoded.data.length).toBe(1280 * 800 * 3);
    // The source JPEG's top-left is the gradient's blue end (#1e6fd9), within HEVC's loss.
    expect(decoded.data[0]).toBeLessThan(80);
    expect(decoded.data[2]).toBeGreaterThan(170);
  });

  it("keeps RGBA when the header says the image has alpha", async () => {
    const decoded = await decodeHeif(fixture("photo-64x48.heic"), { ...options, hasAlpha: true });
    expect(decoded).toMatchObject({ width: 64, height: 48, channels: 4 });
    expect(decoded.data.length).toBe(64 * 48 * 4);
  });

  it("refuses a container with no coded image as UNSUPPORTED_MEDIA_TYPE, and a truncated one", async () => {
    await expect(decodeHeif(singleImage(64, 64), options)).rejects.toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
    const file = fixture("photo-1280x800.heic");
    await expect(decodeHeif(file.subarray(0, file.length - 2000), options)).rejects.toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  it("refuses an image larger than maxPixels even if the header was passed", async () => {
    await expect(
      decodeHeif(fixture("photo-1280x800.heic"), { ...options, maxPixels: 1000 }),
    ).rejects.toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  it("terminates a decode that outlives the time limit (IMAGE_TOO_LARGE), and the next decode still works", async () => {
    await expect(
      decodeHeif(fixture("photo-1280x800.heic"), { ...options, timeoutMs: 1 }),
    ).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
      message: expect.stringMatching(/took longer than/),
    });
    await expect(decodeHeif(fixture("photo-64x48.heic"), options)).resolves.toMatchObject({ width: 64 });
  });

  it("decodes several at once, each in its own worker", async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => decodeHeif(fixture("photo-64x48.heic"), options)),
    );
    expect(results.map(({ width, height }) => `${width}x${height}`)).toEqual(Array(4).fill("64x48"));
  });
});
