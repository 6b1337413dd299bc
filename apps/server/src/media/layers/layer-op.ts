import type { BlendMode, Layer } from "@trove/schema";
import sharp, { type Blend } from "sharp";
import type { Frame } from "../frame.js";
import { type ImageOp, sameSize } from "../image-op.js";
import { drawLayer, type LayerContext } from "./draw-layer.js";
import { layerOrigin, visiblePart } from "./layer-placement.js";

const BLENDS: Record<BlendMode, Blend> = {
  normal: "over",
  multiply: "multiply",
  screen: "screen",
  overlay: "overlay",
  darken: "darken",
  lighten: "lighten",
  "soft-light": "soft-light",
  "hard-light": "hard-light",
  difference: "difference",
  exclusion: "exclusion",
};

/**
 * One layer block composited onto the base as the step has made it so far (after geometry,
 * effects, br, flip and r; before the base's `o` and `bg`): one op per layer, so each layer
 * sees the ones before it and only one layer's pixels are held at a time. Only the part of the
 * layer that lies on the base is composited: a layer partly or wholly outside is clipped, never
 * an error. An underlay goes beneath the base (`dest-over`), so it shows only through the base's
 * transparent pixels; a base without alpha (a JPEG, unless br_ or r_ made transparent corners)
 * has none, and the layer is skipped without being drawn. `bm_` applies to overlays.
 */
export function layerOp(layer: Layer, dpr: number, context: LayerContext): ImageOp {
  const underlay = layer.type === "underlay";
  return {
    fusable: false,
    outputSize: sameSize,
    skip: (input) => (underlay && input.channels === 3) || layer.o === 0,
    apply: async (image, input) => {
      const drawn = await drawLayer(layer, dpr, context);
      const origin = layerOrigin(input, drawn, {
        tp: layer.tp,
        ip: layer.ip,
        x: scaled(layer.x, dpr),
        y: scaled(layer.y, dpr),
        lx: scaled(layer.lx, dpr),
        ly: scaled(layer.ly, dpr),
      });
      const part = visiblePart(input, drawn, origin);
      if (part === undefined) return image;
      const composited = image.composite([
        {
          input: await clip(drawn, part),
          raw: { width: part.width, height: part.height, channels: drawn.channels },
          left: origin.left + part.left,
          top: origin.top + part.top,
          blend: underlay ? "dest-over" : BLENDS[layer.bm ?? "normal"],
          limitInputPixels: false,
        },
      ]);
      // libvips gives the result an alpha band; an opaque base stays opaque (and a JPEG's
      // f_auto stays a JPEG) under an overlay.
      return input.channels === 3 ? composited.removeAlpha() : composited;
    },
  };
}

async function clip(frame: Frame, part: { left: number; top: number; width: number; height: number }) {
  if (part.width === frame.width && part.height === frame.height) return frame.data;
  const raw = { width: frame.width, height: frame.height, channels: frame.channels };
  return sharp(frame.data, { raw, limitInputPixels: false }).extract(part).raw().toBuffer();
}

// Offsets keep their sign (lx_-20 stays left of the edge); sizes are scaled in draw-layer.ts.
const scaled = (value: number | undefined, dpr: number) =>
  value === undefined ? undefined : Math.round(value * dpr);
