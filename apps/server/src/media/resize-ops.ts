import type { CropMode, Gravity, TransformStep } from "@trove/schema";
import type { Colour } from "sharp";
import { backgroundColour, TRANSPARENT } from "./background-colour.js";
import type { Size } from "./frame.js";
import type { ImageOp } from "./image-op.js";

type Strategy = "entropy" | "attention";
const isStrategy = (p: Gravity | undefined): p is Strategy => p === "entropy" || p === "attention";

// sharp's gravity names; entropy and attention are strategies, which sharp also takes as a position.
const POSITION: Record<Gravity, string> = {
  c: "centre",
  t: "north",
  b: "south",
  l: "west",
  r: "east",
  tl: "northwest",
  tr: "northeast",
  bl: "southwest",
  br: "southeast",
  entropy: "entropy",
  attention: "attention",
};

/**
 * The resizing part of a step (w, h, ar, c, p and, for pad, bg), planned for an input of
 * `input`'s size. With one side only, every mode but `limit` and `crop` scales proportionally
 * (there is nothing to fill, fit or pad against).
 */
export function planResize(step: TransformStep, input: Size): ImageOp[] {
  const { width, height } = targetSize(step);
  if (width === undefined && height === undefined) return [];
  const mode: CropMode | undefined = step.c;
  if (width === undefined || height === undefined) {
    if (mode === "crop") return planCrop(width ?? input.width, height ?? input.height, step.p, input);
    return [proportional(width, height, mode === "limit")];
  }
  switch (mode ?? "fill") {
    case "fill":
      return [resize(width, height, { fit: "cover", position: POSITION[step.p ?? "c"] })];
    case "fit":
      return [inside(width, height, false)];
    case "limit":
      return [inside(width, height, true)];
    case "scale":
      return [resize(width, height, { fit: "fill" })];
    case "pad": {
      // A strategy finds what to keep when cropping; with nothing cropped it means nothing.
      const position = POSITION[isStrategy(step.p) ? "c" : (step.p ?? "c")];
      const background = backgroundColour(step.bg, TRANSPARENT);
      return [resize(width, height, { fit: "contain", position, background })];
    }
    case "crop":
      return planCrop(width, height, step.p, input);
  }
}

/** `ar` derives the side that is missing; the grammar guarantees exactly one is given with it. */
function targetSize(step: TransformStep): { width?: number; height?: number } {
  const { w, h, ar } = step;
  if (ar === undefined) return { width: w, height: h };
  if (w !== undefined) return { width: w, height: Math.max(1, Math.round((w * ar.h) / ar.w)) };
  if (h !== undefined) return { width: Math.max(1, Math.round((h * ar.w) / ar.h)), height: h };
  return {};
}

function resize(
  width: number,
  height: number,
  options: { fit: "cover" | "fill" | "contain"; position?: string; background?: Colour },
): ImageOp {
  return {
    fusable: true,
    pads: options.fit === "contain",
    outputSize: () => ({ width, height }),
    apply: (image) => image.resize({ width, height, ...options }),
  };
}

function proportional(
  width: number | undefined,
  height: number | undefined,
  withoutEnlargement: boolean,
): ImageOp {
  return {
    fusable: true,
    outputSize: (input) => {
      const scale = width !== undefined ? width / input.width : (height as number) / input.height;
      if (withoutEnlargement && scale >= 1) return input;
      return {
        width: width ?? Math.max(1, Math.ceil(input.width * scale)),
        height: height ?? Math.max(1, Math.ceil(input.height * scale)),
      };
    },
    apply: (image) => image.resize({ width, height, withoutEnlargement }),
  };
}

function inside(width: number, height: number, withoutEnlargement: boolean): ImageOp {
  return {
    fusable: true,
    outputSize: (input) => {
      const scale = Math.min(width / input.width, height / input.height);
      if (withoutEnlargement && scale >= 1) return input;
      return {
        width: Math.min(width, Math.max(1, Math.ceil(input.width * scale))),
        height: Math.min(height, Math.max(1, Math.ceil(input.height * scale))),
      };
    },
    apply: (image) => image.resize({ width, height, fit: "inside", withoutEnlargement }),
  };
}

/**
 * `c_crop`: a w×h window of the image at `p`, never scaled; a side larger than the image is
 * the image's side (an extract cannot reach outside it).
 */
function planCrop(width: number, height: number, p: Gravity | undefined, input: Size): ImageOp[] {
  const crop = { width: Math.min(width, input.width), height: Math.min(height, input.height) };
  if (isStrategy(p)) return smartCrop(crop, p);
  const gravity = p ?? "c";
  const left = offset(input.width - crop.width, gravity, ["l", "tl", "bl"], ["r", "tr", "br"]);
  const top = offset(input.height - crop.height, gravity, ["t", "tl", "tr"], ["b", "bl", "br"]);
  return [
    {
      fusable: true,
      skip: (shape) => shape.width === crop.width && shape.height === crop.height,
      outputSize: () => crop,
      apply: (image) => image.extract({ left, top, ...crop }),
    },
  ];
}

function offset(slack: number, gravity: Gravity, start: Gravity[], end: Gravity[]): number {
  if (start.includes(gravity)) return 0;
  if (end.includes(gravity)) return slack;
  return Math.floor(slack / 2);
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
