import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pixelAt, solid } from "../../test/support/test-images.js";
import { blockUnusedCodecs } from "./block-unused-codecs.js";
import { processImage } from "./process-image.js";
import { RASTER_FORMATS } from "./raster-format.js";
import { renderVariant } from "./render-variant.js";

const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>',
);
/** Inputs of formats libvips can read (some only in a system build) and Trove never needs. */
const foreign: Record<string, Buffer> = {
  svg,
  pdf: Buffer.from("%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"),
  ppm: Buffer.concat([Buffer.from("P6\n2 2\n255\n"), Buffer.alloc(12, 200)]),
  fits: Buffer.from(
    [
      "SIMPLE  =                    T",
      "BITPIX  =                    8",
      "NAXIS   =                    0",
      "END",
    ]
      .map((card) => card.padEnd(80))
      .join("")
      .padEnd(2880),
  ),
  matrix: Buffer.from("2 2\n1 2\n3 4\n"),
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-codecs-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("libvips codecs Trove never uses", () => {
  it("are blocked by the pipeline itself: after one image, libvips refuses SVG", async () => {
    await processImage({ input: await solid(4, 4, { r: 0, g: 0, b: 255 }), transform: "w_2" });
    // Straight to sharp, past the sniffing: the SVG loader is blocked, not merely avoided.
    await expect(sharp(svg).metadata()).rejects.toThrow(/unsupported image format/);
  });

  it.each(Object.keys(foreign))("refuses %s given to the pipeline, as bytes or as a file", async (name) => {
    const bytes = foreign[name] as Buffer;
    const path = join(dir, `input.${name}`);
    await writeFile(path, bytes);
    for (const input of [bytes, path]) {
      await expect(processImage({ input, transform: "w_4" })).rejects.toMatchObject({
        code: "UNSUPPORTED_MEDIA_TYPE",
        status: 400,
      });
      await expect(processImage({ input })).rejects.toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
      await expect(renderVariant({ input, transform: "w_4,br_max" })).rejects.toMatchObject({
        code: "UNSUPPORTED_MEDIA_TYPE",
        status: 400,
      });
    }
  });

  it("leave no loader that decodes them, nor the VIPS native format", async () => {
    blockUnusedCodecs();
    for (const [name, bytes] of Object.entries(foreign)) {
      const path = join(dir, `direct.${name}`);
      await writeFile(path, bytes);
      await expect(sharp(bytes).metadata(), name).rejects.toThrow();
      await expect(sharp(path).metadata(), name).rejects.toThrow();
    }
    // Nor can the process write formats it never serves.
    await expect(
      sharp({ create: { width: 2, height: 2, channels: 3, background: "red" } }).toFile(join(dir, "x.v")),
    ).rejects.toThrow(/blocked/);
  });

  // sharp cannot write HEIC (no HEVC encoder): it is read from checked-in files in heif/*.test.ts.
  const WRITABLE = RASTER_FORMATS.filter((format) => format !== "heic");

  it.each(WRITABLE)("still read and write %s", async (format) => {
    blockUnusedCodecs();
    const input = await solid(40, 30, { r: 255, g: 0, b: 0 }, format);
    const stored = await processImage({ input, transform: "w_20,br_5" });
    expect(stored.info).toMatchObject({ width: 20, height: 15 });
    const variant = await renderVariant({ input, transform: "w_10,f_png" });
    expect(variant).toMatchObject({ format: "png", width: 10 });
    expect((await pixelAt(variant.body, 5, 5))[0]).toBeGreaterThan(200);
  });
});
