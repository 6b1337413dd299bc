/**
 * An image's placeholder, from its stored bytes: the ThumbHash (base64), the dominant colour
 * (`#rrggbb`) and a tiny WebP `data:` URL of at most MAX_DATA_URL_BYTES.
 *
 * The image is opened the way delivery opens it (openRasterImage: sniffed first, the header's
 * pixel count checked against `maxInputPixels` before any decoding, libvips' time limit, HEIC
 * through libheif), and downscaled once to at most 100 px a side (ThumbHash's own bound; a JPEG
 * is shrunk while it is decoded). Everything after works on those few thousand pixels.
 *
 * The colour is the dominant one of the small image (./dominant-color.ts: the most populated
 * cell of sharp's own 4096-cell histogram), not ThumbHash's average: a photo of a red car on
 * grey asphalt is grey on average, and a placeholder box in the average colour looks like neither.
 */
import sharp from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import type { ImageInput } from "../media/image-input.js";
import type { MediaLimits } from "../media/media-limits.js";
import { openRasterImage } from "../media/open-raster-image.js";
import { dominantColor } from "./dominant-color.js";

export interface Placeholder {
  thumbhash: string;
  /** `#rrggbb`, lowercase. */
  color: string;
  /** `data:image/webp;base64,...`, at most MAX_DATA_URL_BYTES long. */
  dataUrl: string;
}

/** ThumbHash takes at most 100×100 pixels. */
const THUMBHASH_MAX_SIDE = 100;
/** The whole `data:` URL, prefix included (ASCII, so characters are bytes). */
export const MAX_DATA_URL_BYTES = 1024;
const DATA_URL_PREFIX = "data:image/webp;base64,";
/**
 * Tried in order until the URL fits: longest side and WebP quality. A blurred placeholder needs
 * little: 32 px is sharper than the CSS blur it is shown under; 8 px at quality 20 fits any image.
 */
const DATA_URL_ATTEMPTS: ReadonlyArray<{ side: number; quality: number }> = [
  { side: 32, quality: 50 },
  { side: 24, quality: 40 },
  { side: 16, quality: 30 },
  { side: 8, quality: 20 },
];

export async function computePlaceholder(input: ImageInput, limits: MediaLimits): Promise<Placeholder> {
  const { open } = await openRasterImage(input, limits);
  const { data, info } = await open()
    .resize(THUMBHASH_MAX_SIDE, THUMBHASH_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: 4 as const } };
  const thumbhash = Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
  return { thumbhash, color: dominantColor(data), dataUrl: await tinyWebp(data, raw) };
}

async function tinyWebp(
  rgba: Buffer,
  raw: { raw: { width: number; height: number; channels: 4 } },
): Promise<string> {
  for (const { side, quality } of DATA_URL_ATTEMPTS) {
    const webp = await sharp(rgba, raw)
      .resize(side, side, { fit: "inside", withoutEnlargement: true })
      .webp({ quality, alphaQuality: quality, effort: 4 })
      .toBuffer();
    const url = `${DATA_URL_PREFIX}${webp.toString("base64")}`;
    if (url.length <= MAX_DATA_URL_BYTES) return url;
  }
  // 8×8 pixels at quality 20 are a few hundred bytes whatever they hold.
  throw new Error("placeholder: no WebP small enough for the data URL");
}
