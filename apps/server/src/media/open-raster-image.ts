import type { Sharp } from "sharp";
import { openHeif } from "./heif/open-heif.js";
import { type ImageInput, readHead } from "./image-input.js";
import { MediaError } from "./media-error.js";
import type { MediaLimits } from "./media-limits.js";
import { openImage } from "./open-image.js";
import { RASTER_FORMATS, type RasterFormat } from "./raster-format.js";
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
  const format = await sniffRasterFormat(input);
  // HEIC is decoded by libheif in a worker, then handed to sharp as raw pixels (./heif/).
  if (format === "heic") return openHeif(input, limits);
  const open = () => openImage(input, limits);
  const header = await readImageHeader(input, open, format, limits);
  return { open, header };
}

/**
 * The header alone, for callers that will not decode (a store-time upload without a transform):
 * unlike openRasterImage, a HEIC is not decoded here.
 */
export async function readRasterHeader(input: ImageInput, limits: MediaLimits): Promise<ImageHeader> {
  const format = await sniffRasterFormat(input);
  return readImageHeader(input, () => openImage(input, limits), format, limits);
}

async function sniffRasterFormat(input: ImageInput): Promise<RasterFormat> {
  const sniffed = await sniffContent(await readHead(input));
  if (!sniffed.isRasterImage) {
    throw new MediaError(
      "UNSUPPORTED_MEDIA_TYPE",
      `only ${RASTER_FORMATS.join(", ")} images can be transformed; this file is ${sniffed.mimeType}`,
    );
  }
  return sniffed.format;
}
