import { type AutoFormatChoice, autoOutputFormat } from "./negotiate-format.js";
import { outputDirectives, resolveOutputFormat } from "./output-format.js";
import { isRasterFormat, type OutputFormat } from "./raster-format.js";
import { readTransform } from "./read-transform.js";

/**
 * The format renderVariant encodes a variant in, when it can be known without the image: from
 * the canonical transform, the stored image's format and the `f_auto` choice. Undefined when the
 * result's alpha channel decides (TIFF without `f`, `f_auto` for a client without AVIF/WebP),
 * or for an input that is not a raster format. Lets delivery label a cached variant without
 * reading its bytes.
 */
export function variantOutputFormat(
  inputFormat: string,
  canonicalTransform: string,
  autoFormat: AutoFormatChoice,
): OutputFormat | undefined {
  if (!isRasterFormat(inputFormat)) return undefined;
  const { format } = outputDirectives(readTransform(canonicalTransform));
  const auto = (hasAlpha: boolean) => autoOutputFormat(autoFormat, hasAlpha);
  const opaque = resolveOutputFormat(format, inputFormat, false, auto);
  return resolveOutputFormat(format, inputFormat, true, auto) === opaque ? opaque : undefined;
}
