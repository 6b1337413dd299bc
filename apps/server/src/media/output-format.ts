import type { ImageFormat, Transformation } from "@trove/schema";
import { isOutputFormat, type OutputFormat, type RasterFormat } from "./raster-format.js";

/** What the transform asks of the encoder. `f` and `q` apply to the output: the last one wins. */
export interface OutputDirectives {
  format: ImageFormat | undefined;
  quality: number | "auto" | undefined;
}

export function outputDirectives(steps: Transformation): OutputDirectives {
  let format: ImageFormat | undefined;
  let quality: number | "auto" | undefined;
  for (const step of steps) {
    format = step.f ?? format;
    quality = step.q ?? quality;
  }
  return { format, quality };
}

/**
 * The encoder for an output. Without `f` the input's format is kept (the stored file keeps its
 * type), except a format that is read but never written (TIFF, HEIC: not in OUTPUT_FORMATS): png
 * with alpha, else jpeg. `auto` is decided
 * by the caller: webp at store time, the Accept header at delivery.
 */
export function resolveOutputFormat(
  requested: ImageFormat | undefined,
  inputFormat: RasterFormat,
  hasAlpha: boolean,
  auto: (hasAlpha: boolean) => OutputFormat,
): OutputFormat {
  switch (requested) {
    case undefined:
      if (isOutputFormat(inputFormat)) return inputFormat;
      return hasAlpha ? "png" : "jpeg";
    case "auto":
      return auto(hasAlpha);
    case "jpg":
    case "jpeg":
      return "jpeg";
    default:
      return requested;
  }
}
