import type { Sharp } from "sharp";
import { FORMAT_EXTENSIONS, FORMAT_MIME_TYPES, type OutputFormat } from "./raster-format.js";

export interface EncodedImage {
  buffer: Buffer;
  format: OutputFormat;
  mimeType: string;
  /** Without the dot: jpg, png, webp, gif, avif. */
  extension: string;
  width: number;
  height: number;
  size: number;
}

/**
 * Quality without `q`: sharp's own defaults, written down so they cannot drift with sharp.
 * `q_auto` trades a little quality for size (and mozjpeg's trellis quantisation for JPEG).
 * PNG and GIF are lossless here: `q` does not apply to them.
 */
const DEFAULT_QUALITY = { jpeg: 80, webp: 80, avif: 50 } as const;
const AUTO_QUALITY = { jpeg: 72, webp: 70, avif: 45 } as const;

/** Encodes; JPEG has no alpha, so transparency is laid on white rather than libvips' black. */
export async function encodeImage(
  image: Sharp,
  format: OutputFormat,
  quality: number | "auto" | undefined,
): Promise<EncodedImage> {
  const { data, info } = await encoder(image, format, quality).toBuffer({ resolveWithObject: true });
  return {
    buffer: data,
    format,
    mimeType: FORMAT_MIME_TYPES[format],
    extension: FORMAT_EXTENSIONS[format],
    width: info.width,
    height: info.height,
    size: data.length,
  };
}

function encoder(image: Sharp, format: OutputFormat, quality: number | "auto" | undefined): Sharp {
  const q = (key: keyof typeof DEFAULT_QUALITY): number =>
    quality === undefined ? DEFAULT_QUALITY[key] : quality === "auto" ? AUTO_QUALITY[key] : quality;
  switch (format) {
    case "jpeg":
      return image
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: q("jpeg"), mozjpeg: quality === "auto" });
    case "webp":
      return image.webp({ quality: q("webp") });
    case "avif":
      return image.avif({ quality: q("avif") });
    case "png":
      return image.png();
    case "gif":
      return image.gif();
  }
}
