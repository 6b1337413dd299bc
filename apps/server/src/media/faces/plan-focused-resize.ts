import type { SourcePoint, TransformStep } from "@trove/schema";
import type { Size } from "../frame.js";
import { coverWindowSize, placeWindow, sideInPixels, type Window } from "../geometry-window.js";
import type { ImageOp } from "../image-op.js";
import { planResize } from "../resize-ops.js";
import type { Box } from "./box.js";
import type { FaceFocus } from "./face-focus.js";

/**
 * The geometry of a step that asked for faces, given what detection found (docs/TRANSFORMS.md,
 * "Faces"):
 * - `p_face`: the step's window (c_fill's cover window, c_crop's w×h) is centred on the faces'
 *   union, kept inside the image; when the union does not fit in the window, on the largest
 *   face (a window between two faces would show neither). Modes that crop nothing (fit, limit,
 *   scale, pad) have nothing to place.
 * - `fo_face`: the output is framed on the faces: first a crop to them with a margin
 *   (FaceFocus.margin); with w and h (or ar) in c_fill, that crop takes the output's shape, the
 *   smallest window of it that holds them; then the step's own resize applies to the crop
 *   (`fo_face,w_300` is the faces scaled to 300 px wide, no larger than they are without
 *   fl_upscale). With c_crop, which never scales, fo_face places the w×h window like p_face.
 * - No face found (`focus` undefined): p_face is p_c and fo_face frames nothing.
 */
export function planFocusedResize(step: TransformStep, input: Size, focus: FaceFocus | undefined): ImageOp[] {
  if (focus === undefined) return planResize(step, input);
  const frame = step.fo === "face" && step.c !== "crop" ? framingWindow(step, input, focus) : undefined;
  if (frame === undefined) return planResize(step, input, anchorPoint(step, input, focus));
  const inFrame = (box: Box): Box => ({ ...box, left: box.left - frame.left, top: box.top - frame.top });
  const framed = { ...focus, faces: inFrame(focus.faces), main: inFrame(focus.main) };
  return [extractOp(frame, input), ...planResize(step, frame, anchorPoint(step, frame, framed))];
}

/** The point the step's window centres on: the faces' union if the window holds it, else the main face. */
function anchorPoint(step: TransformStep, input: Size, focus: FaceFocus): SourcePoint {
  const window = windowSize(step, input);
  const fits =
    window === undefined || (focus.faces.width <= window.width && focus.faces.height <= window.height);
  return centreOf(fits ? focus.faces : focus.main);
}

/** The size of the window a fill or a crop shows of `input` (before any zoom); undefined for other modes. */
function windowSize(step: TransformStep, input: Size): Size | undefined {
  const mode = step.c ?? "fill";
  if (mode === "crop") {
    const dpr = step.dpr ?? 1;
    const w = typeof step.w === "number" ? sideInPixels(step.w, input.width, dpr) : undefined;
    const h = sideInPixels(step.h, input.height, dpr);
    return {
      width: Math.min(w ?? input.width, input.width),
      height: Math.min(h ?? input.height, input.height),
    };
  }
  const aspect = mode === "fill" ? filledAspect(step, input) : undefined;
  return aspect === undefined ? undefined : largestWindow(input, aspect);
}

/** The faces with their margin, in the output's shape when the step fills a box. */
function framingWindow(step: TransformStep, input: Size, focus: FaceFocus): Window {
  const all = grow(focus.faces, focus.margin, input);
  const aspect = (step.c ?? "fill") === "fill" ? filledAspect(step, input) : undefined;
  if (aspect === undefined) return all;
  const largest = largestWindow(input, aspect);
  const around = (box: Window): Window | undefined => {
    // The smallest window of the output's aspect around `box`.
    const size =
      box.width / box.height > aspect
        ? { width: box.width, height: Math.max(1, Math.round(box.width / aspect)) }
        : { width: Math.max(1, Math.round(box.height * aspect)), height: box.height };
    if (size.width > largest.width || size.height > largest.height) return undefined;
    return placeWindow(size, input, { kind: "point", point: centreOf(box) });
  };
  const main = grow(focus.main, focus.margin, input);
  // All the faces if a window of that shape holds them, else the main one, else the largest
  // window the image has, on the main face (as any fill of that shape would be cut).
  return around(all) ?? around(main) ?? placeWindow(largest, input, { kind: "point", point: centreOf(main) });
}

/** w:h of the box a fill makes, when the step gives both sides (or one and `ar`). */
function filledAspect(step: TransformStep, input: Size): number | undefined {
  const w = typeof step.w === "number" ? sideInPixels(step.w, input.width, 1) : undefined;
  const h = sideInPixels(step.h, input.height, 1);
  if (w !== undefined && h !== undefined) return w / h;
  if (step.ar !== undefined && (w !== undefined || h !== undefined)) return step.ar.w / step.ar.h;
  return undefined;
}

function largestWindow(input: Size, aspect: number): Size {
  return coverWindowSize(input, { width: Math.round(aspect * 10_000), height: 10_000 });
}

/** `box` grown by `margin` on every side, in whole pixels, inside `input`, at least 1×1. */
function grow(box: Box, margin: number, input: Size): Window {
  const left = Math.min(input.width - 1, Math.max(0, Math.floor(box.left - margin)));
  const top = Math.min(input.height - 1, Math.max(0, Math.floor(box.top - margin)));
  const right = Math.max(left + 1, Math.min(input.width, Math.ceil(box.left + box.width + margin)));
  const bottom = Math.max(top + 1, Math.min(input.height, Math.ceil(box.top + box.height + margin)));
  return { left, top, width: right - left, height: bottom - top };
}

function centreOf(box: Box): SourcePoint {
  return { x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2) };
}

/** The framing crop; like a c_crop it runs in the decoding pipeline (fusable). */
function extractOp(window: Window, input: Size): ImageOp {
  const whole = window.width === input.width && window.height === input.height;
  return {
    fusable: true,
    skip: () => whole,
    outputSize: () => ({ width: window.width, height: window.height }),
    apply: (image) => image.extract(window),
  };
}
