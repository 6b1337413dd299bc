import type { CropMode, SourcePoint, TransformStep } from "@trove/schema";
import type { Colour } from "sharp";
import { backgroundColour, TRANSPARENT } from "./background-colour.js";
import type { Size } from "./frame.js";
import {
  type Anchor,
  coverWindowSize,
  gravityAnchor,
  placeWindow,
  type ShortGravity,
  scaledSize,
  shrinkBox,
  sideInPixels,
  type Window,
  wholeWindow,
  zoomWindow,
} from "./geometry-window.js";
import type { ImageOp } from "./image-op.js";
import { MediaError } from "./media-error.js";

type Strategy = "entropy" | "attention";

// sharp's gravity names for the pad mode's position.
const POSITION: Record<ShortGravity, string> = {
  c: "centre",
  t: "north",
  b: "south",
  l: "west",
  r: "east",
  tl: "northwest",
  tr: "northeast",
  bl: "southwest",
  br: "southeast",
};

/** Where a step's window goes: its anchor, or a content strategy libvips finds it with. */
type Placement = { anchor: Anchor; strategy?: undefined } | { anchor: Anchor; strategy: Strategy };

/**
 * The geometry of a step (w, h, ar, c, p, ps, z, dpr, fl_upscale and, for pad, bg), planned for
 * an input of `input`'s size (after any r_portrait/r_landscape turn). Every mode but `crop` and
 * the strategies is one window of the source (geometry-window.ts) extracted and resized in the
 * decoding pipeline. With one side only, every mode but `crop` scales proportionally (there is
 * nothing to fill, fit or pad against). `focus` is a point found in the content (a face) that
 * the window centres on, like `ps_{x},{y}`; without it `p_face` falls back to the centre.
 */
export function planResize(step: TransformStep, input: Size, focus?: SourcePoint): ImageOp[] {
  if (step.w === "auto") {
    throw new MediaError(
      "INVALID_TRANSFORM",
      "w_auto: the width comes from the request's client hints or User-Agent, so it applies at delivery only; give a width (w_800) here",
    );
  }
  const upscale = step.fl === "upscale";
  const zoom = step.z ?? 1;
  const placement = placementOf(step, focus);
  const { width, height } = targetSize(step, input);
  const mode: CropMode | undefined = step.c;
  if (width === undefined || height === undefined) {
    if (width === undefined && height === undefined) return zoomed(input, input, zoom, placement.anchor);
    if (mode === "crop")
      return planCrop(
        { width: width ?? input.width, height: height ?? input.height },
        input,
        zoom,
        placement,
      );
    const scale = width !== undefined ? width / input.width : (height as number) / input.height;
    return zoomed(input, scaledSize(input, scale, upscale && mode !== "limit"), zoom, placement.anchor);
  }
  const box = { width, height };
  switch (mode ?? "fill") {
    case "fill": {
      const output = shrinkBox(box, input, upscale);
      if (placement.strategy) return withZoom([strategyCover(output, placement.strategy)], zoom);
      const window = placeWindow(coverWindowSize(input, output), input, placement.anchor);
      return [windowOp(zoomWindow(window, zoom, placement.anchor), output, input)];
    }
    case "fit":
    case "limit": {
      const scale = Math.min(width / input.width, height / input.height);
      return zoomed(input, scaledSize(input, scale, upscale && mode === "fit"), zoom, placement.anchor);
    }
    case "scale":
      return zoomed(input, shrinkBox(box, input, upscale), zoom, placement.anchor);
    case "pad":
      return [
        padOp(
          padBox(box, input, upscale),
          input,
          zoom,
          placement.anchor,
          backgroundColour(step.bg, TRANSPARENT),
        ),
      ];
    case "crop":
      return planCrop(box, input, zoom, placement);
  }
}

/**
 * w and h in pixels: fractions of `input`, times dpr. `ar` derives the missing side, and is
 * ignored when both are given (documented: E/resize.mdx).
 */
function targetSize(step: TransformStep, input: Size): { width?: number; height?: number } {
  const dpr = step.dpr ?? 1;
  const w = sideInPixels(step.w as number | undefined, input.width, dpr);
  const h = sideInPixels(step.h, input.height, dpr);
  const { ar } = step;
  if (ar === undefined || (w !== undefined && h !== undefined)) return { width: w, height: h };
  if (w !== undefined) return { width: w, height: Math.max(1, Math.round((w * ar.h) / ar.w)) };
  if (h !== undefined) return { width: Math.max(1, Math.round((h * ar.w) / ar.h)), height: h };
  return {};
}

/** `ps` wins over `p` (it is the more specific); a found focus wins over both. */
function placementOf(step: TransformStep, focus: SourcePoint | undefined): Placement {
  if (focus) return { anchor: { kind: "point", point: focus } };
  const { ps, p } = step;
  if (typeof ps === "object") return { anchor: { kind: "point", point: ps } };
  const strategy =
    ps === "entropy" || ps === "attention" ? ps : p === "entropy" || p === "attention" ? p : undefined;
  const center: Anchor = { kind: "gravity", gravity: "c" };
  if (strategy) return { anchor: center, strategy };
  if (ps === "center") return { anchor: center };
  const gravity = gravityAnchor(p);
  return { anchor: gravity ? { kind: "gravity", gravity } : center };
}

/** The whole source at `output`'s size, zoomed about the anchor. */
function zoomed(input: Size, output: Size, zoom: number, anchor: Anchor): ImageOp[] {
  return [windowOp(zoomWindow(wholeWindow(input), zoom, anchor), output, input)];
}

/**
 * One extract-then-resize: `window` of the source, scaled to `output` (sharp extracts before it
 * resizes when extract is called first). Runs in the decoding pipeline, so a JPEG shrinks on load.
 */
function windowOp(window: Window, output: Size, input: Size): ImageOp {
  const whole = window.width === input.width && window.height === input.height;
  const scaled = window.width !== output.width || window.height !== output.height;
  return {
    fusable: true,
    skip: () => whole && !scaled,
    outputSize: () => output,
    apply: (image) => {
      const cropped = whole ? image : image.extract(window);
      return scaled ? cropped.resize({ width: output.width, height: output.height, fit: "fill" }) : cropped;
    },
  };
}

/**
 * `c_pad`'s box without enlargement: the requested ratio, no larger than needed to hold the
 * source unscaled (a 300×200 padded to 400×400 is a 300×300 box). With fl_upscale, the box.
 */
function padBox(box: Size, input: Size, upscale: boolean): Size {
  if (upscale) return box;
  const factor = Math.min(1, Math.max(input.width / box.width, input.height / box.height));
  return {
    width: Math.max(1, Math.floor(box.width * factor + 0.5)),
    height: Math.max(1, Math.floor(box.height * factor + 0.5)),
  };
}

function padOp(box: Size, input: Size, zoom: number, anchor: Anchor, background: Colour): ImageOp {
  const window = zoomWindow(wholeWindow(input), zoom, anchor);
  const whole = window.width === input.width && window.height === input.height;
  // A strategy finds what to keep when cropping; with nothing cropped it means nothing.
  const position = POSITION[anchor.kind === "gravity" ? anchor.gravity : "c"];
  return {
    fusable: true,
    pads: true,
    outputSize: () => box,
    apply: (image) =>
      (whole ? image : image.extract(window)).resize({
        width: box.width,
        height: box.height,
        fit: "contain",
        position,
        background,
      }),
  };
}

/**
 * `c_crop`: a w×h window of the image at the anchor, never scaled; a side larger than the image
 * is the image's side (an extract cannot reach outside it). With z, the window shrinks about
 * the anchor and is scaled back up to w×h.
 */
function planCrop(box: Size, input: Size, zoom: number, placement: Placement): ImageOp[] {
  const crop = { width: Math.min(box.width, input.width), height: Math.min(box.height, input.height) };
  if (placement.strategy) return withZoom(smartCrop(crop, placement.strategy), zoom);
  const window = placeWindow(crop, input, placement.anchor);
  return [windowOp(zoomWindow(window, zoom, placement.anchor), crop, input)];
}

/** A cover resize whose window libvips' smart crop finds. */
function strategyCover(output: Size, strategy: Strategy): ImageOp {
  return {
    fusable: true,
    outputSize: () => output,
    apply: (image) => image.resize({ ...output, fit: "cover", position: strategy }),
  };
}

/**
 * After a strategy found the window (only libvips knows where), z magnifies its centre: the
 * result's middle 1/z, scaled back to the result's size.
 */
function withZoom(ops: ImageOp[], zoom: number): ImageOp[] {
  if (zoom <= 1) return ops;
  const zoomOp: ImageOp = {
    fusable: false,
    outputSize: (input) => ({ width: input.width, height: input.height }),
    apply: (image, input) =>
      image
        .extract(zoomWindow(wholeWindow(input), zoom, { kind: "gravity", gravity: "c" }))
        .resize({ width: input.width, height: input.height, fit: "fill" }),
  };
  return [...ops, zoomOp];
}

/**
 * libvips' smart crop (what sharp's `cover` uses for entropy and attention) only runs after a
 * resize. A cover resize to w×H, then to w×h, has a scale of exactly 1 each time, so each is a
 * pure smart crop along one axis: a window found by the strategy, without any scaling.
 */
function smartCrop(crop: Size, strategy: Strategy): ImageOp[] {
  const pass = (width: (input: Size) => number, height: (input: Size) => number): ImageOp => ({
    fusable: true,
    skip: (shape) => shape.width === width(shape) && shape.height === height(shape),
    outputSize: (input) => ({ width: width(input), height: height(input) }),
    apply: (image, input) =>
      image.resize({ width: width(input), height: height(input), fit: "cover", position: strategy }),
  });
  return [
    pass(
      () => crop.width,
      (input) => input.height,
    ),
    pass(
      () => crop.width,
      () => crop.height,
    ),
  ];
}
