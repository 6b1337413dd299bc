import type { ImageFormat, Transformation, TransformStep } from "@trove/schema";
import { isBrowserFormat, type OutputFormat, type RasterFormat } from "./raster-format.js";

/** What the transform asks of the encoder. `f` and `q` apply to the output: the last one wins. */
export interface OutputDirectives {
  format: ImageFormat | undefined;
  quality: TransformStep["q"];
}

export function outputDirectives(steps: Transformation): OutputDirectives {
  let format: ImageFormat | undefined;
  let quality: TransformStep["q"];
  for (const step of steps) {
    format = step.f ?? format;
    quality = step.q ?? quality;
  }
  return { format, quality };
}

/**
 * The encoder for an output. Without `f` the input's format is kept (the stored file keeps its
 * type), except a format browsers do not display (TIFF, HEIC: not in BROWSER_FORMATS): png
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
      if (isBrowserFormat(inputFormat)) return inputFormat;
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
