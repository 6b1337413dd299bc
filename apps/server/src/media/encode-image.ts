import type { QualityPreset, TransformStep } from "@trove/schema";
import type { Sharp } from "sharp";
import { FORMAT_EXTENSIONS, FORMAT_MIME_TYPES, type OutputFormat } from "./raster-format.js";

export interface EncodedImage {
  buffer: Buffer;
  format: OutputFormat;
  mimeType: string;
  /** Without the dot: jpg, png, webp, gif, avif, tif. */
  extension: string;
  width: number;
  height: number;
  size: number;
}

/**
 * Quality without `q`: sharp's own defaults, written down so they cannot drift with sharp.
 * The `q_auto` presets trade quality for size in four steps (and use mozjpeg's trellis
 * quantisation for JPEG); `q_auto` is `auto:good`, the values it had before the presets. Each
 * column is tuned to its codec: AVIF at 45 looks like JPEG at about 72. PNG, GIF and TIFF
 * (deflate-compressed) are lossless here: `q` does not apply to them.
 */
const DEFAULT_QUALITY: Quality = { jpeg: 80, webp: 80, avif: 50 };
export const AUTO_QUALITY: Record<QualityPreset, Quality> = {
  "auto:best": { jpeg: 88, webp: 85, avif: 60 },
  auto: { jpeg: 72, webp: 70, avif: 45 },
  "auto:good": { jpeg: 72, webp: 70, avif: 45 },
  "auto:eco": { jpeg: 62, webp: 58, avif: 38 },
  "auto:low": { jpeg: 50, webp: 45, avif: 30 },
};
type Quality = Record<"jpeg" | "webp" | "avif", number>;

/** Encodes; JPEG has no alpha, so transparency is laid on white rather than libvips' black. */
export async function encodeImage(
  image: Sharp,
  format: OutputFormat,
  quality: TransformStep["q"],
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

function encoder(image: Sharp, format: OutputFormat, quality: TransformStep["q"]): Sharp {
  const q = (key: keyof Quality): number =>
    quality === undefined
      ? DEFAULT_QUALITY[key]
      : typeof quality === "number"
        ? quality
        : AUTO_QUALITY[quality][key];
  switch (format) {
    case "jpeg":
      return image
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: q("jpeg"), mozjpeg: typeof quality === "string" });
    case "webp":
      return image.webp({ quality: q("webp") });
    case "avif":
      return image.avif({ quality: q("avif") });
    case "png":
      return image.png();
    case "gif":
      return image.gif();
    case "tiff":
      return image.tiff({ compression: "deflate", predictor: "horizontal" });
  }
}
