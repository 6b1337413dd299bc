import type { Transformation } from "@trove/schema";
import { type EncodedImage, encodeImage } from "./encode-image.js";
import type { LayerSources } from "./layers/layer-sources.js";
import { type MediaLimits, resolveMediaLimits } from "./media-limits.js";
import { type AutoFormatChoice, autoOutputFormat, negotiateAutoFormat } from "./negotiate-format.js";
import { openRasterImage } from "./open-raster-image.js";
import { outputDirectives, resolveOutputFormat } from "./output-format.js";
import { type MediaInput, readMediaInput } from "./read-media-input.js";
import { readTransform } from "./read-transform.js";
import { mapRenderError, runTransform } from "./run-transform.js";

export interface RenderVariantOptions {
  /** The stored file: a path, its bytes, or a storage stream (read up to maxInputBytes). */
  input: MediaInput;
  /** From the delivery URL's transform segment, as a string or parsed. */
  transform: Transformation | string;
  /** The request's Accept header; only `f_auto` reads it. */
  accept?: string;
  limits?: Partial<MediaLimits>;
  /** The files `l_image:` layers name, as the caller may show them (layers/layer-sources.ts). */
  layerSources?: LayerSources;
}

export interface RenderedVariant extends Omit<EncodedImage, "buffer"> {
  body: Buffer;
  /** For `f_auto`, the choice the Accept header made (the cache key's third part); else null. */
  autoFormat: AutoFormatChoice | null;
  /** "Accept" when the body depends on the Accept header (f_auto): send it as `Vary`. */
  vary: "Accept" | null;
}

/**
 * Delivery-time rendering of a variant. Same pipeline as store time, except that `f_auto`
 * negotiates: avif if Accept lists image/avif, else webp if image/webp, else jpeg (png when the
 * result has alpha). Throws MediaError like processImage, plus FILE_TOO_LARGE (413) for a
 * stream longer than maxInputBytes.
 */
export async function renderVariant(options: RenderVariantOptions): Promise<RenderedVariant> {
  const limits = resolveMediaLimits(options.limits);
  const steps = readTransform(options.transform);
  const input = await readMediaInput(options.input, limits.maxInputBytes);
  const { open, header } = await openRasterImage(input, limits);
  const rendered = await runTransform(open, header, steps, limits, options.layerSources);

  const { format, quality } = outputDirectives(steps);
  const choice = format === "auto" ? negotiateAutoFormat(options.accept) : null;
  const outputFormat = resolveOutputFormat(format, header.format, rendered.hasAlpha, (hasAlpha) =>
    autoOutputFormat(choice ?? "legacy", hasAlpha),
  );
  const { buffer, ...encoded } = await encodeImage(rendered.image(), outputFormat, quality).catch(
    (error: unknown) => {
      throw mapRenderError(error, rendered, limits);
    },
  );
  return { ...encoded, body: buffer, autoFormat: choice, vary: choice === null ? null : "Accept" };
}
