import { effectsOf, type Layer } from "@trove/schema";
import { effectOps } from "../effect-op.js";
import { type Frame, frameImage, materialize, type Size } from "../frame.js";
import { MediaError } from "../media-error.js";
import type { MediaLimits } from "../media-limits.js";
import { sniffContent } from "../sniff-content.js";
import { checkLayerSize, layerSize } from "./layer-size.js";
import type { LayerSources } from "./layer-sources.js";
import { renderRasterLayer } from "./raster-layer.js";
import { renderSvgLayer } from "./svg-layer.js";
import { renderTextLayer } from "./text-layer.js";

export interface LayerContext {
  limits: MediaLimits;
  /** Absent where no file can be named (a store-time transform): image layers are refused. */
  sources?: LayerSources;
}

const DEFAULT_TEXT_COLOUR = "000000";

/**
 * A layer's own pixels, RGBA: its source drawn at lw/lh (times dpr), then the block's effects,
 * in the step's canonical effect order, then its opacity.
 */
export async function drawLayer(layer: Layer, dpr: number, context: LayerContext): Promise<Frame> {
  const { limits } = context;
  const box = { lw: scaled(layer.lw, dpr), lh: scaled(layer.lh, dpr) };
  let frame: Frame;
  if (layer.source.kind === "text") {
    const text = await renderTextLayer(layer.source, layer.co ?? DEFAULT_TEXT_COLOUR, dpr, limits);
    frame = await resizeFrame(text, layerSize(text, box), limits);
  } else {
    frame = await drawImageSource(layer.source.path, box, context);
  }
  // effectsOf reads only `e`: a layer's effects in the step's canonical order.
  for (const op of effectOps(effectsOf({ e: layer.e }))) {
    if (op.skip?.(frame)) continue;
    frame = await materialize(await op.apply(frameImage(frame, limits), frame));
  }
  if (layer.o !== undefined && layer.o < 100) {
    frame = await materialize(
      frameImage(frame, limits)
        .ensureAlpha()
        .linear([1, 1, 1, layer.o / 100], [0, 0, 0, 0]),
    );
  }
  return frame;
}

async function drawImageSource(
  path: string,
  box: { lw?: number; lh?: number },
  context: LayerContext,
): Promise<Frame> {
  if (context.sources === undefined) {
    throw new MediaError("INVALID_TRANSFORM", `l_image:${path}: image layers are drawn at delivery only`);
  }
  const bytes = await context.sources.image(path);
  if (bytes === undefined) {
    throw new MediaError(
      "INVALID_TRANSFORM",
      `l_image:${path}: no image at this path that this URL may show`,
    );
  }
  const sniffed = await sniffContent(bytes);
  if (sniffed.mimeType === "image/svg+xml") return renderSvgLayer(bytes, box, context.limits);
  if (!sniffed.isRasterImage) {
    throw new MediaError(
      "UNSUPPORTED_MEDIA_TYPE",
      `l_image:${path}: a layer must be a raster image or an SVG; this file is ${sniffed.mimeType}`,
    );
  }
  return renderRasterLayer(bytes, box, context.limits);
}

/** A drawn text at lw/lh: the glyphs are scaled like an image (lw/lh never change the font size). */
async function resizeFrame(frame: Frame, size: Size, limits: MediaLimits): Promise<Frame> {
  if (size.width === frame.width && size.height === frame.height) return frame;
  checkLayerSize(size, frame, limits);
  return materialize(frameImage(frame, limits).resize(size.width, size.height, { fit: "fill" }));
}

const scaled = (value: number | undefined, dpr: number) =>
  value === undefined ? undefined : Math.max(1, Math.round(value * dpr));
