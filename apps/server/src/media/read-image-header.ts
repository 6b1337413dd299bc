import type { Metadata, Sharp } from "sharp";
import { MediaError } from "./media-error.js";
import type { MediaLimits } from "./media-limits.js";
import { FORMAT_MIME_TYPES, type RasterFormat } from "./raster-format.js";
import { decodeError } from "./sharp-error.js";

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
 * Reads the header of a sniffed raster image. libvips parses the header only; the pixel limit
 * is enforced here too, so a bomb is refused before any decoding.
 */
export async function readImageHeader(
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
  const { width, height } = metadata.autoOrient;
  return {
    format: sniffed,
    mimeType: FORMAT_MIME_TYPES[sniffed],
    width,
    height,
    orientation: orientationOf(width, height),
    exifOrientation: metadata.orientation ?? 1,
    hasAlpha: metadata.hasAlpha,
    pages: metadata.pages ?? 1,
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
