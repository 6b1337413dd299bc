import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orientedJpeg, pngBomb, solid } from "../../test/support/test-images.js";
import { MediaError } from "./media-error.js";
import { probeImage } from "./probe-image.js";

const grey = { r: 128, g: 128, b: 128 };
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-probe-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("probeImage", () => {
  it("reads width, height and orientation of a raster image", async () => {
    expect(await probeImage(await solid(300, 200, grey, "png"))).toEqual({
      isImage: true,
      format: "png",
      mimeType: "image/png",
      width: 300,
      height: 200,
      orientation: "landscape",
      exifOrientation: 1,
      hasAlpha: false,
      pages: 1,
    });
    expect(await probeImage(await solid(20, 50, grey, "webp"))).toMatchObject({ orientation: "portrait" });
    expect(await probeImage(await solid(40, 40, grey, "gif"))).toMatchObject({ orientation: "square" });
  });

  it("reports dimensions as displayed: EXIF orientation 6 swaps width and height", async () => {
    const probe = await probeImage(await orientedJpeg(400, 300, 6));
    expect(probe).toMatchObject({
      format: "jpeg",
      width: 300,
      height: 400,
      orientation: "portrait",
      exifOrientation: 6,
    });
  });

  it.each([2, 3, 4])("keeps width and height for EXIF orientation %i", async (orientation) => {
    expect(await probeImage(await orientedJpeg(400, 300, orientation))).toMatchObject({
      width: 400,
      height: 300,
    });
  });

  it.each([5, 7, 8])("swaps width and height for EXIF orientation %i", async (orientation) => {
    expect(await probeImage(await orientedJpeg(400, 300, orientation))).toMatchObject({
      width: 300,
      height: 400,
    });
  });

  it("reads a file path", async () => {
    const path = join(dir, "upload.bin");
    await writeFile(path, await solid(64, 32, grey, "avif"));
    expect(await probeImage(path)).toMatchObject({ format: "avif", width: 64, height: 32 });
  });

  it("gives nulls for non-images, without decoding them", async () => {
    const nulls = { isImage: false, width: null, height: null, orientation: null, exifOrientation: null };
    expect(await probeImage(Buffer.from("%PDF-1.4\n%%EOF\n"))).toEqual(nulls);
    expect(
      await probeImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>')),
    ).toEqual(nulls);
    expect(await probeImage(Buffer.from("plain text"))).toEqual(nulls);
  });

  it("refuses a decompression bomb from its header", async () => {
    const error = await probeImage(pngBomb(100_000, 100_000)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ code: "IMAGE_TOO_LARGE", status: 400 });
    expect((error as Error).message).toMatch(/100000000-pixel input limit/);
  });

  it("honours a configured input limit", async () => {
    const image = await solid(200, 200, grey, "png");
    await expect(probeImage(image, { limits: { maxInputPixels: 39_999 } })).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
    });
    await expect(probeImage(image, { limits: { maxInputPixels: 40_000 } })).resolves.toMatchObject({
      width: 200,
    });
  });

  it("refuses an image whose header is corrupt", async () => {
    const png = Buffer.from(await solid(50, 50, grey, "png"));
    png.writeUInt32BE(0, 16); // IHDR width 0, and its CRC no longer matches
    await expect(probeImage(png)).rejects.toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", status: 400 });
    const jpeg = await solid(50, 50, grey, "jpeg");
    const garbled = Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(200, 0x41)]);
    await expect(probeImage(garbled)).rejects.toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
  });

  it("is not fooled by a signature alone: bytes that only start like a PNG are not an image", async () => {
    const png = await solid(50, 50, grey, "png");
    const fake = Buffer.concat([png.subarray(0, 8), Buffer.alloc(60, 0x41)]);
    expect(await probeImage(fake)).toMatchObject({ isImage: false, width: null });
  });
});
