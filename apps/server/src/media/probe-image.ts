import { type ImageInput, readHead } from "./image-input.js";
import { type MediaLimits, resolveMediaLimits } from "./media-limits.js";
import { openImage } from "./open-image.js";
import { type ImageHeader, readImageHeader } from "./read-image-header.js";
import { sniffContent } from "./sniff-content.js";

/** Dimensions of a raster image, or nulls for anything else (which is never decoded). */
export type ImageProbe =
  | ({ isImage: true } & ImageHeader)
  | { isImage: false; width: null; height: null; orientation: null; exifOrientation: null };

const NOT_AN_IMAGE: ImageProbe = {
  isImage: false,
  width: null,
  height: null,
  orientation: null,
  exifOrientation: null,
};

/**
 * Sniffs `input` and, if it is a raster image, reads its header (never its pixels). Throws a
 * MediaError for a raster image that is corrupt (UNSUPPORTED_MEDIA_TYPE) or declares more than
 * `maxInputPixels` (IMAGE_TOO_LARGE).
 */
export async function probeImage(
  input: ImageInput,
  options: { limits?: Partial<MediaLimits> } = {},
): Promise<ImageProbe> {
  const limits = resolveMediaLimits(options.limits);
  const sniffed = await sniffContent(await readHead(input));
  if (!sniffed.isRasterImage) return NOT_AN_IMAGE;
  const header = await readImageHeader(input, () => openImage(input, limits), sniffed.format, limits);
  return { isImage: true, ...header };
}
