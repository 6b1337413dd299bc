/**
 * `stripEmbeddedMetadata(bytes, format, mode)`: the file's personal metadata removed without
 * re-encoding anything (each container's own file says what goes and what stays), or null when
 * nothing had to change, found without copying the file. `keep`, and formats that carry no
 * such metadata here (GIF), are always null.
 *
 * Throws only EmbeddedMetadataError (the container could not be parsed within its bounds); every
 * walk is linear in the file and allocates at most one copy of it.
 */
import type { EmbeddedMetadataMode } from "@trove/schema";
import type { RasterFormat } from "../raster-format.js";
import { stripHeif } from "./strip-heif.js";
import { stripJpeg } from "./strip-jpeg.js";
import { stripPng } from "./strip-png.js";
import { stripTiff } from "./strip-tiff.js";
import { stripWebp } from "./strip-webp.js";
import type { TiffStripMode } from "./tiff-ifd.js";

const STRIPPERS: Partial<Record<RasterFormat, (bytes: Uint8Array, mode: TiffStripMode) => Buffer | null>> = {
  jpeg: stripJpeg,
  png: stripPng,
  webp: stripWebp,
  tiff: stripTiff,
  heic: stripHeif,
  avif: stripHeif,
};

/** Whether the format is one whose metadata this folder removes. */
export function carriesEmbeddedMetadata(format: string): boolean {
  return Object.hasOwn(STRIPPERS, format);
}

export function stripEmbeddedMetadata(
  bytes: Uint8Array,
  format: string,
  mode: EmbeddedMetadataMode,
): Buffer | null {
  if (mode === "keep") return null;
  const strip = Object.hasOwn(STRIPPERS, format) ? STRIPPERS[format as RasterFormat] : undefined;
  return strip ? strip(bytes, mode) : null;
}
