import { readFileSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { singleImage } from "../../../test/fixtures/heif/build-heif.js";
import { probeImage } from "../probe-image.js";
import { processImage } from "../process-image.js";
import { renderVariant } from "../render-variant.js";
import { sniffContent } from "../sniff-content.js";
import { variantOutputFormat } from "../variant-output-format.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/heif/${name}`, import.meta.url));
const heic = fixture("photo-1280x800.heic");

describe("HEIC through the media pipeline", () => {
  it("sniffs as a raster image, heic, image/heic", async () => {
    expect(await sniffContent(heic)).toEqual({
      mimeType: "image/heic",
      format: "heic",
      extension: "heic",
      isRasterImage: true,
    });
  });

  it("is described from its header at upload, the original kept as is", async () => {
    const processed = await processImage({ input: heic });
    expect(processed.output).toEqual({ kind: "original" });
    expect(processed.info).toMatchObject({
      width: 1280,
      height: 800,
      format: "heic",
      mimeType: "image/heic",
    });
    expect(await probeImage(heic)).toMatchObject({ isImage: true, width: 1280, height: 800 });
  });

  it("renders w_100,f_webp and f_auto for an AVIF-capable browser", async () => {
    const webp = await renderVariant({ input: heic, transform: "w_100,f_webp" });
    expect(webp).toMatchObject({ format: "webp", width: 100, height: 63 });
    expect(await sharp(webp.body).metadata()).toMatchObject({ format: "webp", width: 100 });
    const auto = await renderVariant({
      input: heic,
      transform: "w_200,f_auto",
      accept: "image/avif,image/webp",
    });
    expect(auto).toMatchObject({ format: "avif", autoFormat: "avif", vary: "Accept" });
  });

  it("is never an output format: without f a variant is JPEG (PNG with alpha), like TIFF", async () => {
    const variant = await renderVariant({ input: heic, transform: "w_50" });
    expect(variant).toMatchObject({ format: "jpeg", mimeType: "image/jpeg", width: 50 });
    expect(variantOutputFormat("heic", "w_50", "legacy")).toBeUndefined();
    expect(variantOutputFormat("heic", "w_50,f_webp", "legacy")).toBe("webp");
  });

  it("shows a HEIC as its irot turns it: the record's size and every variant", async () => {
    const turned = fixture("photo-1280x800-irot90.heic");
    expect(await processImage({ input: turned })).toMatchObject({ info: { width: 800, height: 1280 } });
    const variant = await renderVariant({ input: turned, transform: "w_100,f_png" });
    expect(variant).toMatchObject({ width: 100, height: 160 });
    // The same pixels as the unturned photo turned a quarter counter-clockwise (270° clockwise).
    const expected = await sharp((await renderVariant({ input: heic, transform: "f_png" })).body)
      .rotate(270)
      .resize({ width: 100 })
      .raw()
      .toBuffer();
    const actual = await sharp(variant.body).removeAlpha().raw().toBuffer();
    let difference = 0;
    for (let index = 0; index < actual.length; index += 1)
      difference += Math.abs((actual[index] ?? 0) - (expected[index] ?? 0));
    expect(difference / actual.length).toBeLessThan(4);
  });

  it("applies a store-time transform", async () => {
    const processed = await processImage({ input: heic, transform: "w_320,f_webp" });
    expect(processed.output.kind).toBe("transformed");
    expect(processed.info).toMatchObject({ width: 320, height: 200, format: "webp" });
  });

  it("refuses a truncated HEIC at render (UNSUPPORTED_MEDIA_TYPE) and a pixel bomb before decoding (IMAGE_TOO_LARGE)", async () => {
    await expect(renderVariant({ input: heic.subarray(0, 9000), transform: "w_10" })).rejects.toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
    await expect(
      renderVariant({ input: singleImage(60_000, 60_000), transform: "w_10" }),
    ).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
    });
    await expect(processImage({ input: singleImage(60_000, 60_000) })).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
    });
  });

  it("reads an AVIF original with libvips and transforms it", async () => {
    const avif = fixture("photo-64x48.avif");
    expect(await processImage({ input: avif })).toMatchObject({
      output: { kind: "original" },
      info: { format: "avif", mimeType: "image/avif", width: 64, height: 48 },
    });
    expect(await renderVariant({ input: avif, transform: "w_32,f_webp" })).toMatchObject({
      format: "webp",
      width: 32,
      height: 24,
    });
  });
});
