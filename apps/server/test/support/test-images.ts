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

type Shape =
  | { rect: { left: number; top: number; width: number; height: number }; colour: string }
  | { circle: { cx: number; cy: number; r: number }; colour: string };

/**
 * Flat shapes on a background, drawn into raw pixels. Not SVG: the server's process blocks
 * libvips' SVG loader once any test has opened an image, and files share a process.
 */
export function shapes(width: number, height: number, background: string, drawn: Shape[]) {
  const rgb = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  const data = Buffer.alloc(width * height * 3);
  const paint = (x: number, y: number, colour: number[]) => data.set(colour, (y * width + x) * 3);
  const fill = rgb(background);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) paint(x, y, fill);
  for (const shape of drawn) {
    const colour = rgb(shape.colour);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const inside =
          "rect" in shape
            ? x >= shape.rect.left &&
              x < shape.rect.left + shape.rect.width &&
              y >= shape.rect.top &&
              y < shape.rect.top + shape.rect.height
            : (x + 0.5 - shape.circle.cx) ** 2 + (y + 0.5 - shape.circle.cy) ** 2 <= shape.circle.r ** 2;
        if (inside) paint(x, y, colour);
      }
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } });
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
