/**
 * What becomes of an EXIF block in a container that can drop or resize it (JPEG APP1, PNG eXIf,
 * WebP EXIF): `strip` keeps only the orientation (a 26-byte EXIF, or nothing when it is 1);
 * `strip-location` zeroes the GPS IFD (and the thumbnail) in place. A block this parser cannot
 * read is dropped: no reader can then find a location in it, and the container stays valid.
 */
import { isEmbeddedMetadataError } from "./embedded-metadata-error.js";
import { startsWithAscii } from "./mentions-gps.js";
import {
  applyZeroRanges,
  changesAnything,
  minimalExifTiff,
  openTiff,
  type TiffStripMode,
  tiffOrientation,
  tiffZeroRanges,
} from "./tiff-ifd.js";

export type ExifOutcome =
  | { kind: "unchanged" }
  | { kind: "drop" }
  /** The new TIFF bytes (the caller puts back any "Exif\0\0" prefix it had). */
  | { kind: "replace"; tiff: Uint8Array };

export const EXIF_PREFIX = "Exif\0\0";

/** The TIFF inside an EXIF block, after an optional "Exif\0\0" prefix. */
export function exifTiffOffset(block: Uint8Array): number {
  return startsWithAscii(block, EXIF_PREFIX) ? EXIF_PREFIX.length : 0;
}

export function exifBlockOutcome(tiffBytes: Uint8Array, mode: TiffStripMode): ExifOutcome {
  try {
    const tiff = openTiff(tiffBytes);
    if (mode === "strip") {
      const orientation = tiffOrientation(tiff);
      if (orientation === 1) return { kind: "drop" };
      const minimal = minimalExifTiff(orientation);
      return minimal.equals(tiffBytes) ? { kind: "unchanged" } : { kind: "replace", tiff: minimal };
    }
    const ranges = tiffZeroRanges(tiff, mode, true);
    if (!changesAnything(tiffBytes, ranges)) return { kind: "unchanged" };
    const copy = Buffer.from(tiffBytes);
    applyZeroRanges(copy, ranges);
    return { kind: "replace", tiff: copy };
  } catch (error) {
    if (isEmbeddedMetadataError(error)) return { kind: "drop" };
    throw error;
  }
}

/** The replacement TIFF behind the same prefix the block had. */
export function withPrefix(block: Uint8Array, prefixLength: number, tiff: Uint8Array): Buffer {
  return Buffer.concat([block.subarray(0, prefixLength), tiff]);
}
