/**
 * Images for the header-parser tests, generated with sharp: every shape of JPEG, PNG, WebP and
 * GIF an upload commonly has, named for what each exercises.
 */
import sharp, { type Sharp } from "sharp";
import type { RasterFormat } from "../../src/media/raster-format.js";

export interface CorpusImage {
  name: string;
  format: RasterFormat;
  bytes: Buffer;
}

const detailed = (width: number, height: number, channels: 3 | 4) => {
  const data = Buffer.alloc(width * height * channels);
  for (let index = 0; index < data.length; index++) data[index] = (index * 37) % 251;
  if (channels === 4) for (let index = 3; index < data.length; index += 8) data[index] = 0;
  return sharp(data, { raw: { width, height, channels } });
};
const opaque = () => detailed(48, 32, 3);
const alpha = () => detailed(48, 32, 4);
const frames = async (channels: 3 | 4) => {
  const colours = [0, 120, 240].map((r) => ({ r, g: 60, b: 200, alpha: channels === 4 ? 0.5 : 1 }));
  const pngs = colours.map((background) =>
    sharp({ create: { width: 30, height: 20, channels, background } })
      .png()
      .toBuffer(),
  );
  return sharp(await Promise.all(pngs), { join: { animated: true } });
};

export async function headerCorpus(): Promise<CorpusImage[]> {
  const entries: [string, RasterFormat, Sharp | Promise<Sharp>][] = [
    ["jpeg baseline", "jpeg", opaque().jpeg()],
    ["jpeg progressive", "jpeg", opaque().jpeg({ progressive: true })],
    ["jpeg 4:4:4", "jpeg", opaque().jpeg({ chromaSubsampling: "4:4:4" })],
    ["jpeg grey", "jpeg", opaque().greyscale().jpeg()],
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((orientation): [string, RasterFormat, Sharp] => [
      `jpeg orientation ${orientation}`,
      "jpeg",
      opaque().jpeg().withMetadata({ orientation }),
    ]),
    ["png rgb", "png", opaque().png()],
    ["png rgba", "png", alpha().png()],
    ["png interlaced", "png", alpha().png({ progressive: true })],
    ["png palette with tRNS", "png", alpha().png({ palette: true })],
    ["png palette opaque", "png", opaque().png({ palette: true })],
    ["png grey", "png", opaque().greyscale().png()],
    ["png grey 16-bit", "png", opaque().toColourspace("grey16").png()],
    ["png rgb 16-bit", "png", opaque().toColourspace("rgb16").png()],
    ["png grey with alpha", "png", alpha().toColourspace("b-w").png()],
    ["png orientation 6 (eXIf)", "png", opaque().png().withMetadata({ orientation: 6 })],
    ["webp lossy", "webp", opaque().webp()],
    ["webp lossy with alpha (VP8X, ALPH)", "webp", alpha().webp()],
    ["webp lossless", "webp", opaque().webp({ lossless: true })],
    ["webp lossless with alpha", "webp", alpha().webp({ lossless: true })],
    ["webp orientation 6 (VP8X, EXIF)", "webp", opaque().webp().withMetadata({ orientation: 6 })],
    ["webp animated", "webp", frames(3).then((image) => image.webp())],
    ["webp animated with alpha", "webp", frames(4).then((image) => image.webp({ lossless: true }))],
    ["gif", "gif", opaque().gif()],
    ["gif transparent", "gif", alpha().gif()],
    ["gif animated", "gif", frames(3).then((image) => image.gif())],
    ["gif animated transparent", "gif", frames(4).then((image) => image.gif())],
  ];
  return Promise.all(
    entries.map(async ([name, format, image]) => ({ name, format, bytes: await (await image).toBuffer() })),
  );
}

/** Formats whose parser declines on purpose (see parse-webp-header.ts): libvips reads them. */
export const LEFT_TO_LIBVIPS = new Set(["webp animated", "webp animated with alpha"]);
