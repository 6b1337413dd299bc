import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  colourStats,
  halves,
  metadataOf,
  orientedJpeg,
  pattern,
  pixelAt,
  pngBomb,
  solid,
} from "../../test/support/test-images.js";
import { MediaError } from "./media-error.js";
import { type ProcessedImage, processImage } from "./process-image.js";

const red = { r: 255, g: 0, b: 0 };

/** The bytes processImage produced (asserting it transformed). */
function outputOf(result: ProcessedImage): Buffer {
  if (result.output.kind !== "transformed") throw new Error("expected a transformed output");
  return result.output.buffer;
}

async function transformed(input: Buffer | string, transform: string) {
  const result = await processImage({ input, transform });
  const output = outputOf(result);
  const metadata = await metadataOf(output);
  return { result, output, metadata };
}

let landscape: Buffer; // 400×200 PNG, left half red, right half blue
let dir: string;
beforeAll(async () => {
  landscape = await halves(400, 200);
  dir = await mkdtemp(join(tmpdir(), "trove-media-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("processImage without a transform", () => {
  it("keeps the original bytes and describes them", async () => {
    const input = await solid(640, 480, red, "jpeg");
    const result = await processImage({ input });
    expect(result.output).toEqual({ kind: "original" });
    expect(result.transform).toBe("");
    expect(result.info).toEqual({
      width: 640,
      height: 480,
      orientation: "landscape",
      format: "jpeg",
      mimeType: "image/jpeg",
      extension: "jpg",
      size: input.length,
    });
  });

  it("reads a file path", async () => {
    const path = join(dir, "upload");
    const input = await solid(300, 300, red, "webp");
    await writeFile(path, input);
    const result = await processImage({ input: path });
    expect(result.info).toMatchObject({ width: 300, height: 300, format: "webp", size: input.length });
  });

  it("reports a phone photo as displayed (EXIF orientation 6)", async () => {
    const result = await processImage({ input: await orientedJpeg(400, 300, 6) });
    expect(result.info).toMatchObject({ width: 300, height: 400, orientation: "portrait" });
    expect(result.input.exifOrientation).toBe(6);
  });

  it("reads the header only: pixel data is not decoded", async () => {
    // A JPEG cut in half has a sound header and broken pixel data: described, not refused.
    const jpeg = await pattern(300, 200).then((png) => sharp(png).jpeg().toBuffer());
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const result = await processImage({ input: truncated });
    expect(result.output).toEqual({ kind: "original" });
    expect(result.info).toMatchObject({ width: 300, height: 200, format: "jpeg", size: truncated.length });
  });

  it("takes the size from the caller when given", async () => {
    const path = join(dir, "sized");
    await writeFile(path, await solid(20, 20, red, "png"));
    const result = await processImage({ input: path, size: 12345 });
    expect(result.info.size).toBe(12345);
  });

  it("treats a transform that does nothing as none", async () => {
    const result = await processImage({ input: await solid(10, 10, red), transform: "r_0/br_0" });
    expect(result.output.kind).toBe("original");
  });
});

describe("processImage resizing", () => {
  it.each([
    ["w_100,h_100,c_fill", 100, 100],
    ["w_100,h_100", 100, 100], // fill is the default with both sides
    ["w_100,h_100,c_fit", 100, 50],
    ["w_1000,h_1000,c_fit", 400, 200], // no mode enlarges by default (issue #32)
    ["w_1000,h_1000,c_fit,fl_upscale", 1000, 500], // unless fl_upscale asks
    ["w_100,h_100,c_limit", 100, 50],
    ["w_1000,h_1000,c_limit", 400, 200], // limit never enlarges
    ["w_100,h_100,c_scale", 100, 100],
    ["w_100,h_100,c_pad", 100, 100],
    ["w_100,h_150,c_crop", 100, 150],
    ["w_1000,h_50,c_crop", 400, 50], // a crop cannot reach outside the image
    ["w_200", 200, 100],
    ["h_50", 100, 50],
    ["w_800,c_limit", 400, 200],
    ["w_100,c_crop", 100, 200],
    ["w_300,ar_16:9", 300, 169],
    ["h_90,ar_2:1", 180, 90],
    ["w_100,ar_1:1,c_fit", 100, 50],
  ])("%s gives %i×%i", async (transform, width, height) => {
    const { result, metadata } = await transformed(landscape, transform);
    expect([metadata.width, metadata.height]).toEqual([width, height]);
    expect(result.info).toMatchObject({ width, height, format: "png" });
  });

  it("c_scale distorts, c_fill crops", async () => {
    const scaled = (await transformed(landscape, "w_100,h_100,c_scale")).output;
    expect(await pixelAt(scaled, 10, 50)).toEqual([255, 0, 0, 255]);
    expect(await pixelAt(scaled, 90, 50)).toEqual([0, 0, 255, 255]);
    // Fill 200 wide from a 400×200 image keeps the middle: red on the left, blue on the right.
    const filled = (await transformed(landscape, "w_200,h_200,c_fill")).output;
    expect((await pixelAt(filled, 5, 100)).slice(0, 3)).toEqual([255, 0, 0]);
  });

  it("c_fill and c_crop keep the part named by p", async () => {
    for (const c of ["fill", "crop"]) {
      const left = (await transformed(landscape, `w_100,h_200,c_${c},p_l`)).output;
      const right = (await transformed(landscape, `w_100,h_200,c_${c},p_r`)).output;
      expect(await pixelAt(left, 50, 100)).toEqual([255, 0, 0, 255]);
      expect(await pixelAt(right, 50, 100)).toEqual([0, 0, 255, 255]);
    }
    const top = (await transformed(await halves(100, 100, "horizontal"), "w_100,h_20,c_crop,p_t")).output;
    expect(await pixelAt(top, 50, 10)).toEqual([255, 0, 0, 255]);
    const bottom = (await transformed(await halves(100, 100, "horizontal"), "w_100,h_20,c_crop,p_br")).output;
    expect(await pixelAt(bottom, 50, 10)).toEqual([0, 0, 255, 255]);
  });

  it("c_crop with a strategy extracts without scaling", async () => {
    const input = await pattern(300, 200);
    for (const p of ["entropy", "attention"]) {
      const { metadata, output } = await transformed(input, `w_120,h_80,c_crop,p_${p}`);
      expect([metadata.width, metadata.height]).toEqual([120, 80]);
      // Not scaled: the 8-pixel checkerboard keeps its period, so detail (stdev) stays high.
      expect((await colourStats(output)).stdev).toBeGreaterThan(20);
    }
    const { metadata } = await transformed(input, "w_100,h_100,c_fill,p_attention");
    expect([metadata.width, metadata.height]).toEqual([100, 100]);
  });

  it("c_pad fills the bars with bg, or transparency", async () => {
    const clear = (await transformed(landscape, "w_100,h_100,c_pad")).output;
    expect((await pixelAt(clear, 50, 2))[3]).toBe(0);
    expect(await pixelAt(clear, 5, 50)).toEqual([255, 0, 0, 255]);
    const white = (await transformed(landscape, "w_100,h_100,c_pad,bg_white")).output;
    expect(await pixelAt(white, 50, 2)).toEqual([255, 255, 255, 255]);
    const top = (await transformed(landscape, "w_100,h_100,c_pad,p_t,bg_00ff00")).output;
    expect(await pixelAt(top, 50, 95)).toEqual([0, 255, 0, 255]);
  });

  it("renders a resize or crop of a JPEG in one pipeline with the pixels of the frame path", async () => {
    const jpeg = await pattern(400, 300).then((png) => sharp(png).jpeg({ quality: 95 }).toBuffer());
    const raw = (image: Buffer) => sharp(image).raw().toBuffer({ resolveWithObject: true });
    for (const transform of ["w_200", "w_100,h_100", "w_120,h_120,c_fit", "w_100,h_150,c_crop,p_tl"]) {
      const fused = await transformed(jpeg, transform);
      const { width, height } = fused.result.info;
      // A second step that changes nothing (a crop to the whole image is skipped) takes the
      // same resize through the frame path: decoded to raw pixels, then encoded.
      const framed = await transformed(jpeg, `${transform}/w_${width},h_${height},c_crop`);
      expect(fused.result.info).toEqual(framed.result.info);
      expect(fused.result.info.format).toBe("jpeg");
      const [a, b] = await Promise.all([raw(fused.output), raw(framed.output)]);
      expect(a.info).toEqual(b.info);
      let difference = 0;
      for (let i = 0; i < a.data.length; i++) difference += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
      expect(difference / a.data.length, transform).toBeLessThan(0.5);
    }
  });

  it("pads a JPEG with white, not black, when the padding would be transparent", async () => {
    const jpeg = await solid(400, 200, red, "jpeg");
    const { output, result } = await transformed(jpeg, "w_100,h_100,c_pad");
    expect(result.info.format).toBe("jpeg");
    const [r, g, b] = await pixelAt(output, 50, 2);
    expect(Math.min(r, g, b)).toBeGreaterThan(245);
  });

  it("resizes a phone photo as displayed", async () => {
    const { metadata } = await transformed(await orientedJpeg(400, 300, 6), "w_150");
    expect([metadata.width, metadata.height]).toEqual([150, 200]);
    expect(metadata.orientation).toBeUndefined(); // applied, not carried over
  });

  it("applies steps in order", async () => {
    const { metadata } = await transformed(landscape, "w_200/r_90");
    expect([metadata.width, metadata.height]).toEqual([100, 200]);
    const other = await transformed(landscape, "r_90/w_200");
    expect([other.metadata.width, other.metadata.height]).toEqual([200, 400]);
  });

  it("handles greyscale, alpha and 16-bit sources", async () => {
    const grey = await sharp({ create: { width: 80, height: 40, channels: 3, background: "#808080" } })
      .toColourspace("b-w")
      .png()
      .toBuffer();
    expect((await transformed(grey, "w_40,r_45,bg_red")).metadata.channels).toBe(3);
    const wide = await sharp({
      create: { width: 80, height: 40, channels: 4, background: { ...red, alpha: 0.5 } },
    })
      .toColourspace("rgb16")
      .png()
      .toBuffer();
    const { output } = await transformed(wide, "w_40");
    expect(await pixelAt(output, 20, 10)).toEqual([255, 0, 0, 128]);
  });
});

describe("processImage output format and quality", () => {
  const source = () => pattern(200, 100);

  it.each([
    ["f_png", "png", "image/png", "png"],
    ["f_jpg", "jpeg", "image/jpeg", "jpg"],
    ["f_jpeg", "jpeg", "image/jpeg", "jpg"],
    ["f_webp", "webp", "image/webp", "webp"],
    ["f_avif", "heif", "image/avif", "avif"],
    ["f_gif", "gif", "image/gif", "gif"],
    ["f_auto", "webp", "image/webp", "webp"], // webp at store time
  ])("%s writes a real %s", async (transform, decoder, mimeType, extension) => {
    const { result, metadata } = await transformed(await source(), transform);
    expect(metadata.format).toBe(decoder);
    if (decoder === "heif") expect(metadata.compression).toBe("av1");
    expect(result.info).toMatchObject({ mimeType, extension, width: 200, height: 100 });
    expect(result.info.size).toBe(outputOf(result).length);
    expect(result.transform).toBe(transform === "f_jpeg" ? "f_jpg" : transform);
  });

  it("keeps the source format without f, except TIFF", async () => {
    expect((await transformed(await solid(50, 50, red, "webp"), "w_10")).metadata.format).toBe("webp");
    expect((await transformed(await solid(50, 50, red, "tiff"), "w_10")).metadata.format).toBe("jpeg");
    // sharp's TIFF default compression is JPEG, which has no alpha: use LZW for a transparent TIFF.
    const clear = await sharp({
      create: { width: 50, height: 50, channels: 4, background: { ...red, alpha: 0.5 } },
    })
      .tiff({ compression: "lzw" })
      .toBuffer();
    expect((await transformed(clear, "w_10")).metadata.format).toBe("png");
  });

  it("q sets the quality: lower is smaller", async () => {
    const input = await source();
    const low = (await transformed(input, "f_jpg,q_10")).output.length;
    const high = (await transformed(input, "f_jpg,q_95")).output.length;
    const auto = (await transformed(input, "f_jpg,q_auto")).output.length;
    expect(low).toBeLessThan(high);
    expect(auto).toBeLessThan(high);
    const webpLow = (await transformed(input, "f_webp,q_5")).output.length;
    const webpHigh = (await transformed(input, "f_webp,q_100")).output.length;
    expect(webpLow).toBeLessThan(webpHigh);
  });

  it("the last f and q win", async () => {
    const { result } = await transformed(await source(), "f_png,q_20/w_50,f_webp");
    expect(result.info.format).toBe("webp");
  });

  it("lays transparency on white for JPEG", async () => {
    const { output } = await transformed(landscape, "w_100,h_100,c_pad,f_jpg");
    const [r, g, b] = await pixelAt(output, 50, 2);
    expect(Math.min(r, g, b)).toBeGreaterThan(245);
  });
});

describe("processImage rotation, flip and corners", () => {
  it("r: right angles are exact", async () => {
    const { metadata, output } = await transformed(landscape, "r_90");
    expect([metadata.width, metadata.height]).toEqual([200, 400]);
    // Clockwise: the left (red) half ends up on top.
    expect(await pixelAt(output, 100, 10)).toEqual([255, 0, 0, 255]);
    expect(await pixelAt((await transformed(landscape, "r_-90")).output, 100, 10)).toEqual([0, 0, 255, 255]);
    expect(await pixelAt((await transformed(landscape, "r_180")).output, 10, 100)).toEqual([0, 0, 255, 255]);
  });

  it("r: other angles grow the canvas and fill it with bg, or transparency", async () => {
    const { metadata, output } = await transformed(await solid(100, 100, red), "r_45");
    expect(metadata.width).toBeGreaterThanOrEqual(141);
    expect(metadata.width).toBeLessThanOrEqual(143);
    expect((await pixelAt(output, 1, 1))[3]).toBe(0);
    expect(await pixelAt(output, 70, 70)).toEqual([255, 0, 0, 255]);
    const onBlue = (await transformed(await solid(100, 100, red), "r_30,bg_blue")).output;
    expect(await pixelAt(onBlue, 1, 1)).toEqual([0, 0, 255, 255]);
    expect((await metadataOf(onBlue)).hasAlpha).toBe(false); // flattened onto bg
  });

  it("flip mirrors", async () => {
    expect(await pixelAt((await transformed(landscape, "flip_h")).output, 10, 100)).toEqual([0, 0, 255, 255]);
    expect(await pixelAt((await transformed(landscape, "flip_v")).output, 10, 100)).toEqual([255, 0, 0, 255]);
    const stacked = await halves(100, 100, "horizontal");
    expect(await pixelAt((await transformed(stacked, "flip_v")).output, 50, 10)).toEqual([0, 0, 255, 255]);
    expect(await pixelAt((await transformed(stacked, "flip_hv")).output, 50, 10)).toEqual([0, 0, 255, 255]);
  });

  it("br rounds the corners", async () => {
    const { output, metadata } = await transformed(await solid(200, 100, red, "png"), "br_30");
    expect(metadata.hasAlpha).toBe(true);
    expect((await pixelAt(output, 0, 0))[3]).toBe(0);
    expect((await pixelAt(output, 199, 99))[3]).toBe(0);
    expect((await pixelAt(output, 6, 6))[3]).toBe(0); // outside the 30 px arc
    expect((await pixelAt(output, 12, 12))[3]).toBe(255); // inside it
    expect((await pixelAt(output, 100, 0))[3]).toBe(255); // straight edge untouched
    expect((await pixelAt(output, 0, 50))[3]).toBe(255);
    // The arc crosses the diagonal at 30 - 30/√2 ≈ 8.8: that pixel is partly covered.
    const edge = (await pixelAt(output, 8, 8))[3];
    expect(edge).toBeGreaterThan(0);
    expect(edge).toBeLessThan(255);
  });

  it("br_max makes an ellipse", async () => {
    const { output } = await transformed(await solid(200, 100, red, "png"), "br_max");
    expect((await pixelAt(output, 100, 50))[3]).toBe(255);
    expect((await pixelAt(output, 20, 10))[3]).toBe(0);
    expect((await pixelAt(output, 100, 1))[3]).toBe(255);
    expect((await pixelAt(output, 1, 50))[3]).toBe(255);
    const circle = (await transformed(await solid(100, 100, red, "png"), "br_max")).output;
    // The circle crosses the diagonal at 50 - 50/√2 ≈ 14.6.
    expect((await pixelAt(circle, 13, 13))[3]).toBe(0);
    const edge = (await pixelAt(circle, 14, 14))[3];
    expect(edge).toBeGreaterThan(0);
    expect(edge).toBeLessThan(255);
    expect((await pixelAt(circle, 16, 16))[3]).toBe(255);
  });

  it("br with bg and a JPEG output has coloured corners", async () => {
    const { output } = await transformed(await solid(100, 100, red, "jpeg"), "br_40,bg_blue");
    const [r, , b] = await pixelAt(output, 1, 1);
    expect(b).toBeGreaterThan(200);
    expect(r).toBeLessThan(50);
  });
});

describe("processImage effects", () => {
  const base = () => pattern(160, 120);
  const stats = async (transform: string) => colourStats((await transformed(await base(), transform)).output);

  it("grayscale removes colour and keeps alpha", async () => {
    const { output } = await transformed(
      await solid(20, 20, { r: 200, g: 50, b: 10, alpha: 0.5 }),
      "e_grayscale",
    );
    const [r, g, b, a] = await pixelAt(output, 10, 10);
    expect(Math.abs(r - g) + Math.abs(g - b)).toBeLessThanOrEqual(2);
    expect(a).toBe(128);
  });

  it("invert negates colours", async () => {
    const { output } = await transformed(await solid(10, 10, { r: 200, g: 50, b: 10 }), "e_invert");
    expect(await pixelAt(output, 5, 5)).toEqual([55, 205, 245, 255]);
  });

  it("blur lowers detail, sharpen raises it", async () => {
    const before = await colourStats(await base());
    expect((await stats("e_blur:20")).stdev).toBeLessThan(before.stdev);
    const soft = (await transformed(await base(), "e_blur:10")).output;
    const softStats = await colourStats(soft);
    const sharpened = await colourStats((await transformed(soft, "e_sharpen:100")).output);
    expect(sharpened.stdev).toBeGreaterThan(softStats.stdev);
    const mild = await colourStats((await transformed(soft, "e_sharpen")).output);
    expect(mild.stdev).toBeGreaterThan(softStats.stdev);
  });

  it("brightness, contrast and saturation move the right statistic", async () => {
    const before = await colourStats(await base());
    expect((await stats("e_brightness:50")).mean).toBeGreaterThan(before.mean + 10);
    expect((await stats("e_brightness:-50")).mean).toBeLessThan(before.mean - 10);
    expect((await stats("e_contrast:50")).stdev).toBeGreaterThan(before.stdev + 5);
    expect((await stats("e_contrast:-50")).stdev).toBeLessThan(before.stdev - 5);
    const grey = (await transformed(await solid(10, 10, { r: 200, g: 50, b: 10 }), "e_saturation:-100"))
      .output;
    const [r, g, b] = await pixelAt(grey, 5, 5);
    expect(Math.abs(r - g) + Math.abs(g - b)).toBeLessThanOrEqual(2);
  });
});

describe("processImage refusals", () => {
  it("refuses a decompression bomb before decoding it, in bounded memory", async () => {
    const bomb = pngBomb(100_000, 100_000); // 10 gigapixels in a few hundred bytes
    expect(bomb.length).toBeLessThan(1000);
    const before = process.memoryUsage().rss;
    for (const transform of [undefined, "w_100"]) {
      const error = await processImage({ input: bomb, transform }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MediaError);
      expect(error).toMatchObject({ code: "IMAGE_TOO_LARGE", status: 400 });
      expect((error as Error).message).toContain("100000000-pixel input limit");
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("refuses a real, highly compressible image over the input limit", async () => {
    const flat = await solid(3000, 3000, red, "png"); // 9 MP of one colour: a few KB
    expect(flat.length).toBeLessThan(200_000);
    await expect(
      processImage({ input: flat, transform: "w_10", limits: { maxInputPixels: 5_000_000 } }),
    ).rejects.toMatchObject({ code: "IMAGE_TOO_LARGE", message: expect.stringContaining("5000000-pixel") });
  });

  it("keeps every pixel limit on the one-pipeline path of a JPEG resize", async () => {
    // A JPEG with one resize or crop skips the decoded frame (run-transform.ts): the checks must
    // still come first.
    const flat = await solid(3000, 3000, red, "jpeg");
    await expect(
      processImage({ input: flat, transform: "w_10", limits: { maxInputPixels: 5_000_000 } }),
    ).rejects.toMatchObject({ code: "IMAGE_TOO_LARGE", message: expect.stringContaining("5000000-pixel") });
    const small = await solid(100, 100, red, "jpeg");
    await expect(
      processImage({ input: small, transform: "w_8000,h_8000,c_scale,fl_upscale" }),
    ).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
      message: expect.stringContaining("40000000-pixel output limit"),
    });
    await expect(
      processImage({ input: small, transform: "w_200,fl_upscale", limits: { maxUpscalePixels: 10_000 } }),
    ).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
      message: expect.stringContaining("10000-pixel limit"),
    });
  });

  it("refuses an output over the pixel cap with a 400", async () => {
    const input = await solid(100, 100, red);
    const error = await processImage({ input, transform: "w_8000,h_8000,c_scale,fl_upscale" }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "IMAGE_TOO_LARGE", status: 400 });
    expect((error as Error).message).toBe(
      "step 1 (w_8000,h_8000,c_scale,fl_upscale) would produce 8000×8000 = 64000000 pixels, more than the 40000000-pixel output limit",
    );
    // The side that ar derives counts too.
    await expect(processImage({ input, transform: "w_8192,ar_1:100,fl_upscale" })).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
    });
    // So does an intermediate step, even if a later one shrinks it again.
    await expect(
      processImage({
        input,
        transform: "w_2000,h_2000,c_fit,fl_upscale/w_10",
        limits: { maxOutputPixels: 1_000_000 },
      }),
    ).rejects.toMatchObject({ code: "IMAGE_TOO_LARGE" });
    // And a format change of a source over the cap.
    await expect(
      processImage({ input, transform: "f_webp", limits: { maxOutputPixels: 9_999 } }),
    ).rejects.toMatchObject({ code: "IMAGE_TOO_LARGE" });
  });

  it("refuses an image larger than its source over the upscale limit, naming it", async () => {
    const tiny = await solid(10, 10, red);
    const error = await processImage({ input: tiny, transform: "w_6000,h_6000,c_fill,fl_upscale" }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "IMAGE_TOO_LARGE", status: 400 });
    expect((error as Error).message).toBe(
      "step 1 (w_6000,h_6000,c_fill,fl_upscale) would produce 6000×6000 = 36000000 pixels from a 10×10 image, more than the 16777216-pixel limit for images larger than their source",
    );
    // A retina rendition of a photo stays well inside the default.
    const photo = await solid(1200, 800, red, "jpeg");
    expect((await processImage({ input: photo, transform: "w_2400,fl_upscale" })).info).toMatchObject({
      width: 2400,
      height: 1600,
    });
  });

  it("bounds every kind of growth by the upscale limit, and nothing that stays within the source", async () => {
    const limits = { maxUpscalePixels: 10_000 };
    const square = await solid(100, 100, red); // 10,000 pixels
    const refused = { code: "IMAGE_TOO_LARGE", message: expect.stringContaining("10000-pixel limit") };
    const run = (input: Buffer, transform: string) => processImage({ input, transform, limits });
    // Up to the limit, or down from any size, is fine.
    expect((await run(await solid(10, 10, red), "w_100,fl_upscale")).info.width).toBe(100);
    await expect(run(await solid(10, 10, red), "w_101,fl_upscale")).rejects.toMatchObject(refused);
    expect((await run(await solid(400, 400, red), "w_300")).info.width).toBe(300);
    // An intermediate counts, compared with the source, not with the step before it.
    await expect(run(square, "w_10/w_200,fl_upscale")).rejects.toMatchObject(refused);
    expect((await run(square, "w_10/w_100,fl_upscale")).info.width).toBe(100);
    // So do a padded canvas and a rotated one: r_45 turns a 1000×10 strip into 717×717.
    await expect(run(square, "w_200,h_200,c_pad,fl_upscale")).rejects.toMatchObject(refused);
    const strip = await solid(1000, 10, red);
    await expect(run(strip, "r_45")).rejects.toMatchObject(refused);
    expect((await run(strip, "r_90")).info).toMatchObject({ width: 10, height: 1000 });
  });

  it("lets a large source through when the transform reduces it first", async () => {
    const input = await solid(3000, 2000, red, "jpeg");
    const result = await processImage({ input, transform: "w_300", limits: { maxOutputPixels: 1_000_000 } });
    expect(result.info).toMatchObject({ width: 300, height: 200 });
  });

  it("refuses a truncated image when transforming it", async () => {
    const jpeg = await pattern(300, 300).then((png) => sharp(png).jpeg().toBuffer());
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    for (const transform of ["w_100", "e_grayscale", "f_webp"]) {
      const error = await processImage({ input: truncated, transform }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MediaError);
      expect(error).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", status: 400 });
    }
  });

  it("refuses non-raster content, SVG included, without decoding it", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await expect(processImage({ input: svg, transform: "w_5" })).rejects.toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: expect.stringContaining("image/svg+xml"),
    });
    await expect(processImage({ input: Buffer.from("%PDF-1.4\n%%EOF") })).rejects.toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  it("refuses a bad transform, naming the directive", async () => {
    const input = await solid(10, 10, red);
    await expect(processImage({ input, transform: "w_100,q_200" })).rejects.toMatchObject({
      code: "INVALID_TRANSFORM",
      status: 400,
      message: "q_200: quality must be 1..100",
    });
    await expect(processImage({ input, transform: [{ w: 0 }] })).rejects.toMatchObject({
      code: "INVALID_TRANSFORM",
    });
  });

  it("accepts parsed steps as well as strings", async () => {
    const result = await processImage({
      input: landscape,
      transform: [{ w: 100, h: 100, c: "fit", f: "webp" }],
    });
    expect(result.info).toMatchObject({ width: 100, height: 50, format: "webp" });
    expect(result.transform).toBe("w_100,h_100,c_fit,f_webp");
  });
});
