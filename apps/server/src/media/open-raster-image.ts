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
 * `open()` gives a fresh pipeline over the input for each use: cheaper than `Sharp.clone()`,
 * which structured-clones its options and with them a Buffer input (4 MB for a 12 MP photo).
 */
export async function openRasterImage(
  input: ImageInput,
  limits: MediaLimits,
): Promise<{ open: () => Sharp; header: ImageHeader }> {
  const sniffed = await sniffContent(await readHead(input));
  if (!sniffed.isRasterImage) {
    throw new MediaError(
      "UNSUPPORTED_MEDIA_TYPE",
      `only ${RASTER_FORMATS.join(", ")} images can be transformed; this file is ${sniffed.mimeType}`,
    );
  }
  const open = () => openImage(input, limits);
  const header = await readImageHeader(input, open, sniffed.format, limits);
  return { open, header };
}
