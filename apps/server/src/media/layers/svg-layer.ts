import { Resvg, renderAsync } from "@resvg/resvg-js";
import sharp from "sharp";
import { type Frame, materialize } from "../frame.js";
import { MediaError } from "../media-error.js";
import type { MediaLimits } from "../media-limits.js";
import { bundledFontFiles } from "./bundled-fonts.js";
import { checkLayerSize, type LayerBox, layerSize } from "./layer-size.js";
import { checkSvgReferences } from "./svg-references.js";

/** An SVG layer's file may be at most this long: a logo is kilobytes, and resvg parses it on our CPU. */
export const MAX_SVG_LAYER_BYTES = 1024 * 1024;

/**
 * Rasterises an SVG layer with resvg (not libvips, whose SVG loader stays blocked: see
 * ../block-unused-codecs.ts), at lw/lh or its own size. Nothing outside the file is read: its
 * references are checked first (./svg-references.ts), system fonts are not loaded (its text is
 * drawn with the bundled fonts only), and the rendering runs off the event loop and is abandoned
 * after the pipeline time limit.
 */
export async function renderSvgLayer(bytes: Buffer, box: LayerBox, limits: MediaLimits): Promise<Frame> {
  if (bytes.length > MAX_SVG_LAYER_BYTES) {
    throw new MediaError(
      "IMAGE_TOO_LARGE",
      `l_image: an SVG layer may be at most ${MAX_SVG_LAYER_BYTES} bytes`,
    );
  }
  const svg = bytes.toString("utf8");
  await checkSvgReferences(svg, limits.maxOutputPixels);
  const options = {
    font: { loadSystemFonts: false, fontFiles: bundledFontFiles(), defaultFontFamily: "Arimo" },
    logLevel: "off" as const,
  };
  let natural: { width: number; height: number };
  try {
    const parsed = new Resvg(svg, options);
    natural = { width: parsed.width, height: parsed.height };
  } catch (error) {
    throw new MediaError("UNSUPPORTED_MEDIA_TYPE", "l_image: the SVG could not be parsed", { cause: error });
  }
  const size = layerSize(natural, box);
  checkLayerSize(size, natural, limits);
  const signal = AbortSignal.timeout(limits.timeoutSeconds * 1000);
  const rendered = await renderAsync(
    svg,
    { ...options, fitTo: { mode: "width", value: size.width } },
    signal,
  ).catch((error: unknown) => {
    if (signal.aborted) {
      throw new MediaError(
        "IMAGE_TOO_LARGE",
        `l_image: the SVG took longer than ${limits.timeoutSeconds} s to draw`,
      );
    }
    throw new MediaError("UNSUPPORTED_MEDIA_TYPE", "l_image: the SVG could not be drawn", { cause: error });
  });
  // resvg keeps the SVG's ratio; lw and lh together may ask for another one.
  const image = sharp(rendered.asPng(), { limitInputPixels: false });
  return materialize(
    rendered.width === size.width && rendered.height === size.height
      ? image.ensureAlpha()
      : image.resize(size.width, size.height, { fit: "fill" }).ensureAlpha(),
  );
}
