import { beforeAll, describe, expect, it } from "vitest";
import { type CorpusImage, headerCorpus, LEFT_TO_LIBVIPS } from "../../test/support/header-corpus.js";
import { type MediaLimits, resolveMediaLimits } from "./media-limits.js";
import { openImage } from "./open-image.js";
import { parseRasterHeader } from "./parse-raster-header.js";
import type { RasterFormat } from "./raster-format.js";
import { readHeaderWithLibvips, readImageHeader } from "./read-image-header.js";

const limits = resolveMediaLimits();

/** What a header read ends in: the header, or the refusal's code and message. */
async function outcome(read: Promise<unknown>) {
  return read.then(
    (header) => ({ header }),
    (error: unknown) => ({
      refused: {
        name: (error as Error).name,
        code: (error as { code?: string }).code,
        message: (error as Error).message,
      },
    }),
  );
}
const viaParser = (bytes: Buffer, format: RasterFormat, use: MediaLimits = limits) =>
  outcome(readImageHeader(bytes, () => openImage(bytes, use), format, use));
const viaLibvips = (bytes: Buffer, format: RasterFormat, use: MediaLimits = limits) =>
  outcome(readHeaderWithLibvips(openImage(bytes, use), format, use));

let corpus: CorpusImage[];
beforeAll(async () => {
  corpus = await headerCorpus();
});

describe("parseRasterHeader agrees with libvips", () => {
  it("reads every image of the corpus itself, except the ones it leaves to libvips on purpose", () => {
    for (const { name, format, bytes } of corpus) {
      expect(parseRasterHeader(bytes, format) === undefined, name).toBe(LEFT_TO_LIBVIPS.has(name));
    }
  });

  it("gives exactly the header libvips gives, for each image of the corpus", async () => {
    for (const { name, format, bytes } of corpus) {
      const expected = await viaLibvips(bytes, format);
      expect(expected, name).toHaveProperty("header");
      expect(await viaParser(bytes, format), name).toEqual(expected);
    }
    // The corpus covers what it says: orientations swap, alpha and frames are seen.
    const byName = new Map(corpus.map((image) => [image.name, image]));
    const parsed = (name: string) => {
      const image = byName.get(name) as CorpusImage;
      return parseRasterHeader(image.bytes, image.format);
    };
    expect(parsed("jpeg orientation 6")).toMatchObject({ width: 48, height: 32, exifOrientation: 6 });
    expect(parsed("png palette with tRNS")).toMatchObject({ hasAlpha: true });
    expect(parsed("png orientation 6 (eXIf)")).toMatchObject({ exifOrientation: 6 });
    expect(parsed("gif animated transparent")).toMatchObject({ pages: 3, hasAlpha: true });
    expect(parsed("webp lossless with alpha")).toMatchObject({ hasAlpha: true });
  });

  it("refuses at the pixel limit exactly where libvips does", async () => {
    for (const { name, format, bytes } of corpus) {
      for (const maxInputPixels of [48 * 32 - 1, 48 * 32, 30 * 20 - 1, 30 * 20]) {
        const tight = resolveMediaLimits({ maxInputPixels });
        expect(await viaParser(bytes, format, tight), `${name} at ${maxInputPixels}`).toEqual(
          await viaLibvips(bytes, format, tight),
        );
      }
    }
  });

  it("agrees on every truncation of the header: refused the same way, or read the same", async () => {
    for (const { name, format, bytes } of corpus.filter((image) => !LEFT_TO_LIBVIPS.has(image.name))) {
      for (let length = 1; length < Math.min(bytes.length, 1500); length++) {
        const cut = bytes.subarray(0, length);
        expect(await viaParser(cut, format), `${name} cut at ${length}`).toEqual(
          await viaLibvips(cut, format),
        );
      }
    }
  }, 120_000);

  it("agrees on thousands of files with corrupted header bytes", async () => {
    let random = 0x2545f491;
    const next = (below: number) => {
      // xorshift32: deterministic, so a failure names a reproducible case.
      random ^= random << 13;
      random ^= random >>> 17;
      random ^= random << 5;
      return (random >>> 0) % below;
    };
    let readByParser = 0;
    for (const { name, format, bytes } of corpus.filter((image) => !LEFT_TO_LIBVIPS.has(image.name))) {
      for (let variant = 0; variant < 150; variant++) {
        const mutated = Buffer.from(bytes);
        const span = Math.min(bytes.length, 700);
        for (let flips = 1 + next(3); flips > 0; flips--) mutated[next(span)] = next(256);
        if (parseRasterHeader(mutated, format) !== undefined) readByParser++;
        expect(await viaParser(mutated, format), `${name} variant ${variant}`).toEqual(
          await viaLibvips(mutated, format),
        );
      }
    }
    // Not vacuous: many corrupted files still took the parser's path.
    expect(readByParser).toBeGreaterThan(500);
  }, 120_000);
});
