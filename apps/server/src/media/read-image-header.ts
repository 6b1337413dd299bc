import type { Metadata, Sharp } from "sharp";
import { readHeifHeader } from "./heif/read-heif-header.js";
import { type ImageInput, leadingBytes } from "./image-input.js";
import { MediaError } from "./media-error.js";
import type { MediaLimits } from "./media-limits.js";
import { parseRasterHeader } from "./parse-raster-header.js";
import type { ParsedHeader } from "./parsed-header.js";
import { FORMAT_MIME_TYPES, type RasterFormat } from "./raster-format.js";
import { decodeError, inputPixelLimitError } from "./sharp-error.js";

export type ImageOrientation = "landscape" | "portrait" | "square";

/** What the header of a raster image says, with width and height as the image is displayed. */
export interface ImageHeader {
  format: RasterFormat;
  mimeType: string;
  /** After EXIF orientation: a phone photo stored 4000×3000 with orientation 6 is 3000×4000. */
  width: number;
  height: number;
  orientation: ImageOrientation;
  /** The EXIF Orientation tag, 1..8; 1 (as stored) when the file has none. */
  exifOrientation: number;
  hasAlpha: boolean;
  /** Frames of an animation or pages of a TIFF; the pipeline reads the first only. */
  pages: number;
}

/**
 * Reads the header of a sniffed raster image, `input`, never its pixels. The pixel limit is
 * enforced here too, so a bomb is refused before any decoding. An image in memory, or a file
 * whose head is (ImageFile), whose format has a parser of our own (JPEG, PNG, WebP, GIF:
 * parse-raster-header.ts) is read from those bytes, over 20 times faster than a libvips header
 * read, which costs most of an upload's CPU time; the parsers take only files libvips takes,
 * with the same header. Anything else, and whatever a parser does not vouch for, is read by
 * libvips through `open()`.
 */
export async function readImageHeader(
  input: ImageInput,
  open: () => Sharp,
  sniffed: RasterFormat,
  limits: MediaLimits,
): Promise<ImageHeader> {
  // HEIC has no libvips decoder to fall back on: its own parser reads it, limits checked there.
  if (sniffed === "heic") {
    const heif = await readHeifHeader(input, limits);
    return { ...headerOf(sniffed, heif), mimeType: heif.mimeType };
  }
  // A file's head is parsed as a truncated file would be: a parser vouches only for a header
  // that lies whole in the bytes it is given (JPEG's ends at its first scan, PNG's at IDAT).
  const parsed = typeof input === "string" ? undefined : parseRasterHeader(leadingBytes(input), sniffed);
  if (parsed === undefined) return readHeaderWithLibvips(open(), sniffed, limits);
  // libvips compares the pixels as stored, before orientation, and refuses only strictly more.
  if (parsed.width * parsed.height > limits.maxInputPixels) throw inputPixelLimitError(limits);
  return headerOf(sniffed, parsed);
}

/** The header as libvips reads it: for formats without a parser, and the parsers' reference. */
export async function readHeaderWithLibvips(
  image: Sharp,
  sniffed: RasterFormat,
  limits: MediaLimits,
): Promise<ImageHeader> {
  let metadata: Metadata;
  try {
    metadata = await image.metadata();
  } catch (error) {
    throw decodeError(error, limits);
  }
  // Belt and braces: the decoder libvips picked must be the one the magic bytes promised, so
  // that nothing that sniffed as PNG is ever handled by, say, the SVG or PDF loader.
  if (decodedFormat(metadata) !== sniffed) {
    throw new MediaError("UNSUPPORTED_MEDIA_TYPE", `content is not a valid ${sniffed} image`);
  }
  return headerOf(sniffed, {
    width: metadata.width,
    height: metadata.height,
    exifOrientation: metadata.orientation ?? 1,
    hasAlpha: metadata.hasAlpha,
    pages: metadata.pages ?? 1,
  });
}

/** Orientations 5 to 8 turn the image a quarter: what is displayed is the stored size swapped. */
function headerOf(format: RasterFormat, parsed: ParsedHeader): ImageHeader {
  const swap = parsed.exifOrientation >= 5;
  const width = swap ? parsed.height : parsed.width;
  const height = swap ? parsed.width : parsed.height;
  return {
    format,
    mimeType: FORMAT_MIME_TYPES[format],
    width,
    height,
    orientation: orientationOf(width, height),
    exifOrientation: parsed.exifOrientation,
    hasAlpha: parsed.hasAlpha,
    pages: parsed.pages,
  };
}

export function orientationOf(width: number, height: number): ImageOrientation {
  if (width === height) return "square";
  return width > height ? "landscape" : "portrait";
}

function decodedFormat(metadata: Metadata): string {
  // libvips reads AVIF through its HEIF loader; an HEVC-compressed HEIF is HEIC, not AVIF.
  if (metadata.format === "heif") return metadata.compression === "av1" ? "avif" : "heic";
  // libvips names JPEG "jpeg" and TIFF "tiff"; both match RasterFormat already.
  return metadata.format;
}
