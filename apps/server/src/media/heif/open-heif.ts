import sharp, { type Sharp } from "sharp";
import type { ImageInput } from "../image-input.js";
import type { MediaLimits } from "../media-limits.js";
import { type ImageHeader, orientationOf, readImageHeader } from "../read-image-header.js";
import { decodeHeif } from "./decode-heif.js";
import { readHeifBytes } from "./read-heif-header.js";

/**
 * openRasterImage for a HEIC: the header from the container (limits checked), then the pixels
 * from libheif in a worker, handed to sharp as raw pixels. libvips never parses the file (its
 * HEIF loader is for AVIF only), and every transform and output format works from the pixels as
 * for any other input. The header is the decoded image's: libheif has applied the rotation, so
 * there is no orientation left to apply.
 */
export async function openHeif(
  input: ImageInput,
  limits: MediaLimits,
): Promise<{ open: () => Sharp; header: ImageHeader }> {
  const bytes = await readHeifBytes(input, limits);
  const declared = await readImageHeader(bytes, unreachable, "heic", limits);
  const pixels = await decodeHeif(bytes, {
    hasAlpha: declared.hasAlpha,
    maxPixels: limits.maxInputPixels,
    timeoutMs: limits.timeoutSeconds * 1000,
  });
  const header: ImageHeader = {
    ...declared,
    width: pixels.width,
    height: pixels.height,
    orientation: orientationOf(pixels.width, pixels.height),
    hasAlpha: pixels.channels === 4,
  };
  const raw = { width: pixels.width, height: pixels.height, channels: pixels.channels };
  const open = () =>
    sharp(pixels.data, { raw, limitInputPixels: limits.maxInputPixels }).timeout({
      seconds: limits.timeoutSeconds,
    });
  return { open, header };
}

function unreachable(): never {
  throw new Error("a HEIC header is read by the HEIF parser, never by libvips");
}
