import type { Sharp } from "sharp";
import { type ImageInput, readHead } from "./image-input.js";
import { MediaError } from "./media-error.js";
import type { MediaLimits } from "./media-limits.js";
import { openImage } from "./open-image.js";
import { RASTER_FORMATS } from "./raster-format.js";
import { type ImageHeader, readImageHeader } from "./read-image-header.js";
import { sniffContent } from "./sniff-content.js";

/**
 * Sniffs `input` and opens it for decoding if, and only if, its magic bytes say it is one of
 * RASTER_FORMATS; anything else (SVG, PDF, video, text) is refused before libvips sees a byte.
 */
export async function openRasterImage(
  input: ImageInput,
  limits: MediaLimits,
): Promise<{ image: Sharp; header: ImageHeader }> {
  const sniffed = await sniffContent(await readHead(input));
  if (!sniffed.isRasterImage) {
    throw new MediaError(
      "UNSUPPORTED_MEDIA_TYPE",
      `only ${RASTER_FORMATS.join(", ")} images can be transformed; this file is ${sniffed.mimeType}`,
    );
  }
  const image = openImage(input, limits);
  return { image, header: await readImageHeader(image, sniffed.format, limits) };
}
