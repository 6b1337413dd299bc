import sharp, { type Sharp } from "sharp";
import { blockUnusedCodecs } from "./block-unused-codecs.js";
import { decoderInput, type ImageInput } from "./image-input.js";
import type { MediaLimits } from "./media-limits.js";

/**
 * The one place a client's image reaches libvips. Callers sniff first (only RASTER_FORMATS get
 * here). `limitInputPixels` makes libvips refuse a header that declares too many pixels before
 * allocating anything; `failOn: "error"` refuses corrupt and truncated data instead of decoding
 * grey garbage; `autoOrient` applies the EXIF orientation before every other operation, so
 * transforms address the image as people see it. libvips' loaders other than the raster ones
 * are blocked first (block-unused-codecs.ts), so whatever calls the pipeline, no client image
 * can reach the SVG or PDF loader.
 */
export function openImage(input: ImageInput, limits: MediaLimits): Sharp {
  blockUnusedCodecs();
  return sharp(decoderInput(input), {
    limitInputPixels: limits.maxInputPixels,
    failOn: "error",
    sequentialRead: true,
    autoOrient: true,
  }).timeout({ seconds: limits.timeoutSeconds });
}
