/** Images for the media tests, generated in memory with sharp (no fixture files). */
import { crc32, deflateSync } from "node:zlib";
import sharp, { type FormatEnum } from "sharp";

type Rgba = { r: number; g: number; b: number; alpha?: number };

export function solid(
  width: number,
  height: number,
  colour: Rgba,
  format: keyof FormatEnum | "avif" = "png",
) {
  const channels = colour.alpha === undefined ? 3 : 4;
  const image = sharp({ create: { width, height, channels, background: colour } });
  // sharp writes AVIF through its HEIF encoder; toFormat's type only lists the encoder names.
  return (format === "avif" ? image.avif() : image.toFormat(format)).toBuffer();
}

/** Left half red, right half blue (or top red, bottom blue): shows where a crop or flip landed. */
export function halves(width: number, height: number, split: "vertical" | "horizontal" = "vertical") {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const first = split === "vertical" ? x < width / 2 : y < height / 2;
      data.set(first ? [255, 0, 0] : [0, 0, 255], (y * width + x) * 3);
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A colourful, detailed image: a gradient with a checkerboard, for effects and smart crops. */
export function pattern(width: number, height: number) {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const check = ((x >> 3) + (y >> 3)) % 2 === 0 ? 60 : 0;
      data.set(
        [Math.round((x / width) * 195) + check, Math.round((y / height) * 195) + check, 120 + check],
        (y * width + x) * 3,
      );
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A JPEG stored `width`×`height` with the given EXIF orientation (6: shown rotated 90° cw). */
export function orientedJpeg(width: number, height: number, orientation: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 100, b: 50 } } })
    .jpeg()
    .withMetadata({ orientation })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG signature and IHDR (correct CRC) declaring width×height
 * 8-bit greyscale pixels, followed by a little compressed data. A few hundred bytes that would
 * decode to width×height bytes.
 */
export function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(Buffer.alloc((width + 1) * 4))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** RGBA of one pixel of an encoded image (alpha 255 when it has none). */
export async function pixelAt(
  image: Buffer,
  x: number,
  y: number,
): Promise<[number, number, number, number]> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [data[at], data[at + 1], data[at + 2], data[at + 3]] as [number, number, number, number];
}

/** Mean and standard deviation over the colour channels. */
export async function colourStats(image: Buffer): Promise<{ mean: number; stdev: number }> {
  const { channels } = await sharp(image).stats();
  const colour = channels.slice(0, 3);
  return {
    mean: colour.reduce((sum, channel) => sum + channel.mean, 0) / colour.length,
    stdev: colour.reduce((sum, channel) => sum + channel.stdev, 0) / colour.length,
  };
}

export const metadataOf = (image: Buffer) => sharp(image).metadata();
