/**
 * TIFF files: the metadata lives among the image's own tags, whose offsets point everywhere in
 * the file, so nothing moves: the values of what goes are zeroed in place (./tiff-ifd.ts), same
 * length, every offset still valid, the pixel strips untouched. Every page keeps its tags that
 * describe pixels, its ICC profile (0x8773) and its Orientation.
 */
import {
  applyZeroRanges,
  changesAnything,
  openTiff,
  type TiffStripMode,
  tiffZeroRanges,
} from "./tiff-ifd.js";

export function stripTiff(bytes: Uint8Array, mode: TiffStripMode): Buffer | null {
  const ranges = tiffZeroRanges(openTiff(bytes), mode, false);
  if (!changesAnything(bytes, ranges)) return null;
  const copy = Buffer.from(bytes);
  applyZeroRanges(copy, ranges);
  return copy;
}
